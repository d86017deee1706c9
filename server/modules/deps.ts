/** What a module's service needs: the database and the undo window every command runs with. */
import type { Db } from "../db/client.js";
import type { RouteDeps } from "../http/route.js";

export interface ServiceDeps {
  db: Db;
  undoWindowMs: number;
}

/** A service's deps out of the running service's database and configuration: made once, by the composition root (server/services.ts). */
export const serviceDeps = ({ db, config }: Pick<RouteDeps, "db" | "config">): ServiceDeps => ({ db, undoWindowMs: config.undoWindowMs });
