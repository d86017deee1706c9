/** Instance setup (by the one-time code) and instance administration. */
import { defineModule, type ModuleDeps } from "../manifest.js";
import type { SetupCode } from "./setup-code.js";
import { adminRoutes } from "./routes.js";

export const adminModule = defineModule<ModuleDeps & { setup: SetupCode }>({ name: "admin", routes: adminRoutes });
