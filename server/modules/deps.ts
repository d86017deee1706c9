/** What a module's service needs: the database and the undo window every command runs with. */
import type { Db } from "../db/client.js";
import type { RouteDeps } from "../http/route.js";

export interface ServiceDeps {
  db: Db;
  undoWindowMs: number;
}

/** A service's deps out of what its route factory was handed. */
export const serviceDeps = ({ db, config }: Pick<RouteDeps, "db" | "config">): ServiceDeps => ({ db, undoWindowMs: config.undoWindowMs });
