/** inbox: a draft captured through push (with its batch, and the op that made it). */
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { rows } from "../../../../server/db/client.js";
import { PROTOCOL } from "../../../../sync/protocol.js";
import { ok, type ModuleKinds } from "./types.js";

export const inboxKinds: ModuleKinds = {
  inboxItem: {
    make: async (t) => {
      const opId = uuidv7();
      const op = { id: opId, name: "thing.capture", locationId: t.location, at: new Date().toISOString() };
      const args = { id: uuidv7(), name: `${t.name} Capture ${t.next()}`, batchId: uuidv7() };
      const pushed = await ok(t.owner.post("/api/v1/sync/push", { clientId: `${t.name}-device`, protocol: PROTOCOL, ops: [{ ...op, args }] }), "capture");
      if (pushed.results[0].status !== "applied") throw new Error(`capture: ${JSON.stringify(pushed.results[0])}`);
      const [item] = await rows<{ id: string; batch_id: string }>(
        t.db,
        sql`SELECT id, batch_id FROM inbox_items WHERE location_id = ${t.location} AND kind = 'draft' AND status = 'open' AND deleted_at IS NULL ORDER BY created_at DESC LIMIT 1`,
      );
      t.ids.inboxItem = item!.id;
      t.ids.batch = item!.batch_id;
      t.ids.opId = opId;
    },
    alive: (ids) => sql`EXISTS (SELECT 1 FROM inbox_items WHERE id = ${ids.inboxItem} AND deleted_at IS NULL AND status = 'open')`,
  },
};
