/** Share links: a read-only view of a place or thing for someone without an account. */
import { defineModule } from "../manifest.js";
import { createShareLimits } from "./limits.js";
import { shareLinkRoutes } from "./routes.js";

export const shareLinksModule = defineModule({
  name: "share-links",
  routes: (deps) => shareLinkRoutes({ ...deps, shareLimits: createShareLimits(deps.database) }),
  idKinds: ["shareLink"],
});
