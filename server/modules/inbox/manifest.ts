/** The inbox: items to review (their kinds' owners raise them) and their decisions. */
import { defineModule } from "../manifest.js";
import { inboxAccept, inboxDismiss, inboxMerge } from "./commands.js";
import { inboxRoutes } from "./routes.js";
import { inboxRaise } from "./raise.js";

export const inboxModule = defineModule({
  name: "inbox",
  routes: inboxRoutes,
  commands: [inboxAccept, inboxDismiss, inboxMerge, inboxRaise],
  // A pushed op the server dropped, for the person to see why (drops.ts).
  inboxKinds: ["sync_drop"],
  shapes: ["inbox"],
  idKinds: ["inboxItem"],
});
