/** things: a container, a thing (with its label code and history event), and a captured draft's batch. */
import { sql } from "drizzle-orm";
import { rows } from "../../../../server/db/client.js";
import { ok, type ModuleKinds } from "./types.js";

export const thingKinds: ModuleKinds = {
  container: {
    table: "things",
    make: async (t) =>
      void (t.ids.container = (
        await ok(t.owner.post(`/api/v1/locations/${t.location}/things`, { name: `${t.name} Box ${t.next()}`, isContainer: true }), "container")
      ).id),
    // A container that became a box of an active move cannot be added to another: made anew.
    alive: (ids) => sql`EXISTS (SELECT 1 FROM things WHERE id = ${ids.container} AND deleted_at IS NULL AND is_container)
      AND NOT EXISTS (SELECT 1 FROM move_boxes b JOIN moves m ON m.id = b.move_id WHERE b.container_id = ${ids.container} AND b.deleted_at IS NULL AND m.status = 'active')`,
  },
  thing: {
    table: "things",
    make: async (t) => {
      const made = await ok(t.owner.post(`/api/v1/locations/${t.location}/things`, { name: `${t.name} Drill ${t.next()}` }), "thing");
      t.ids.thing = made.id;
      t.ids.code = made.shortCode;
      const [event] = await rows<{ id: string }>(t.db, sql`SELECT id FROM history_entries WHERE entity_id = ${t.ids.thing} ORDER BY at DESC LIMIT 1`);
      t.ids.historyEvent = event!.id;
    },
    // A thing lent out by a request cannot be lent again: made anew (a loan's create is sent in several id cases).
    alive: (ids) => sql`EXISTS (SELECT 1 FROM things WHERE id = ${ids.thing} AND deleted_at IS NULL)
      AND NOT EXISTS (SELECT 1 FROM loans WHERE thing_id = ${ids.thing} AND returned_at IS NULL)`,
  },
  // A capture's batch: its inbox item's (inbox.ts makes both).
  batch: { madeWith: "inboxItem" },
};
