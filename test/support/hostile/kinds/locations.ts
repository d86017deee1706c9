/** locations: the tenant's own location, made with its owner (seedTenant), never made anew. */
import type { ModuleKinds } from "./types.js";

export const locationKinds: ModuleKinds = { location: {} };
