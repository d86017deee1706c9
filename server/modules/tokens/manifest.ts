/** Personal access tokens. */
import { defineModule, type ModuleDeps } from "../manifest.js";
import type { TokenHasher } from "./secret.js";
import { tokenRoutes } from "./routes.js";

export const tokensModule = defineModule<ModuleDeps & { tokenHasher: TokenHasher }>({
  name: "tokens",
  routes: (deps) => tokenRoutes(deps, deps.tokenHasher),
  idKinds: ["token"],
});
