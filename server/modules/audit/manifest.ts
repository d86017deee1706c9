/** The audit log: security-relevant settings changes of an account or a location, newest first. */
import { defineModule } from "../manifest.js";
import { auditRoutes } from "./routes.js";

export const auditModule = defineModule({ name: "audit", routes: auditRoutes });
