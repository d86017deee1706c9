/** A location's members and their invites. */
import { defineModule } from "../manifest.js";
import { memberRemove, memberUpdate } from "./commands.js";
import { memberRoutes } from "./routes.js";
import { memberJoin } from "./join.js";

export const membersModule = defineModule({
  name: "members",
  routes: memberRoutes,
  commands: [memberUpdate, memberRemove, memberJoin],
  shapes: ["memberships"],
  idKinds: ["memberUser", "invite"],
});
