/** Secret field values: revealed on purpose, and fields converted to secret. */
import { defineModule } from "../manifest.js";
import { secretReveal, typeFieldConvert } from "./commands.js";
import { secretRoutes } from "./routes.js";

export const secretsModule = defineModule({
  name: "secrets",
  routes: secretRoutes,
  commands: [secretReveal, typeFieldConvert],
  idKinds: ["fieldKey"],
});
