/** What route factories need from the running service. */
import type { Auth } from "../auth/auth.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";

export interface RouteDeps {
  db: Db;
  config: Config;
  auth: Auth;
}
