/** History: what changed, by whom, and its undo. */
import { defineModule } from "../manifest.js";
import { historyRoutes } from "./routes.js";
import { historyUndo } from "./undo.js";

export const historyModule = defineModule({
  name: "history",
  routes: historyRoutes,
  commands: [historyUndo],
  idKinds: ["historyEvent"],
});
