/** moves: an active move, and a box of it (a crate of its own). */
import { sql } from "drizzle-orm";
import { rows } from "../../../../server/db/client.js";
import { ok, type ModuleKinds } from "./types.js";

export const moveKinds: ModuleKinds = {
  move: {
    table: "moves",
    make: async (t) => void (t.ids.move = (await ok(t.owner.post(`/api/v1/locations/${t.location}/moves`, { name: `${t.name} Move ${t.next()}` }), "move")).id),
    alive: (ids) => sql`EXISTS (SELECT 1 FROM moves WHERE id = ${ids.move} AND status = 'active' AND deleted_at IS NULL)`,
  },
  // Only ever named as an id already taken (a create's own id): a removed box's row still holds it, so it never dies.
  moveBox: {
    make: async (t) => {
      const crate = (await ok(t.owner.post(`/api/v1/locations/${t.location}/things`, { name: `${t.name} Crate ${t.next()}`, isContainer: true }), "crate"))
        .id as string;
      await ok(t.owner.post(`/api/v1/moves/${t.ids.move}/boxes`, { containerId: crate }), "box");
      const [box] = await rows<{ id: string }>(t.db, sql`SELECT id FROM move_boxes WHERE move_id = ${t.ids.move} AND container_id = ${crate}`);
      t.ids.moveBox = box!.id;
    },
  },
};
