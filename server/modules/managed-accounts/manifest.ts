/** Managed accounts: made and reset by owners and admins, redeemed with a one-time code. */
import { defineModule } from "../manifest.js";
import { managedAccountRoutes } from "./routes.js";

export const managedAccountsModule = defineModule({
  name: "managed-accounts",
  routes: managedAccountRoutes,
  idKinds: ["managedUser"],
});
