/** files: an uploaded picture. */
import { sql } from "drizzle-orm";
import { PNG, sendRaw } from "../http.js";
import type { ModuleKinds } from "./types.js";

export const fileKinds: ModuleKinds = {
  file: {
    make: async (t) => {
      const res = await sendRaw(t.svc, {
        method: "POST",
        path: `/api/v1/files?locationId=${t.location}`,
        cookies: t.owner.cookies,
        address: t.owner.address,
        headers: { "content-type": "image/png" },
        body: PNG,
      });
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text.slice(0, 200)}`);
      t.ids.file = (res.body as { id: string }).id;
    },
    alive: (ids) => sql`EXISTS (SELECT 1 FROM files WHERE id = ${ids.file} AND deleted_at IS NULL)`,
  },
};
