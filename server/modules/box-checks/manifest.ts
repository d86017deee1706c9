/** Box checks: what was found in a box when it was last looked into. */
import { defineModule } from "../manifest.js";
import { boxCheckRecord } from "./commands.js";
import { boxCheckRoutes } from "./routes.js";

export const boxChecksModule = defineModule({
  name: "box-checks",
  routes: boxCheckRoutes,
  commands: [boxCheckRecord],
  shapes: ["box_checks"],
});
