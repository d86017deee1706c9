/** Sign-up, the signed-in person's own account (profile, sessions, sign-in methods). */
import { defineModule } from "../manifest.js";
import { accountRoutes } from "./routes.js";
import { signUpRoute } from "./signup.js";

export const accountModule = defineModule({
  name: "account",
  routes: (deps) => [signUpRoute(deps), ...accountRoutes(deps)],
  idKinds: ["session"],
});
