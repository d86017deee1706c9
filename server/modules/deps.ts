/** What route factories need from the running service. */
import type { Auth } from "../auth/auth.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";

export interface RouteDeps {
  db: Db;
  config: Config;
  auth: Auth;
}

/** What a module's service needs: the database and the undo window every command runs with. */
export interface ServiceDeps {
  db: Db;
  undoWindowMs: number;
}

export const serviceDeps = ({ db, config }: Pick<RouteDeps, "db" | "config">): ServiceDeps => ({ db, undoWindowMs: config.undoWindowMs });
