/** history: the tenant's thing's newest event (made with the thing), alive while it can be undone. */
import { sql } from "drizzle-orm";
import type { ModuleKinds } from "./types.js";

export const historyKinds: ModuleKinds = {
  historyEvent: {
    madeWith: "thing",
    alive: (ids) =>
      sql`EXISTS (SELECT 1 FROM history_entries WHERE id = ${ids.historyEvent} AND undone_at IS NULL AND undoable_until > now() + interval '1 minute')`,
  },
};
