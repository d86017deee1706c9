/** Moves: boxes packed, loaded, unloaded and unpacked, and their printed lists and labels. */
import { defineModule } from "../manifest.js";
import { boxAdd } from "./add.js";
import { boxLoad, boxRemove, boxUnload, boxUnpack, boxUpdate } from "./boxes.js";
import { moveCreate, moveUpdate } from "./commands.js";
import { movePrintRoutes } from "./print-routes.js";
import { moveRoutes } from "./routes.js";

export const movesModule = defineModule({
  name: "moves",
  routes: (deps) => [...movePrintRoutes(deps), ...moveRoutes(deps)],
  commands: [moveCreate, moveUpdate, boxAdd, boxUpdate, boxLoad, boxUnload, boxUnpack, boxRemove],
  shapes: ["moves", "move_boxes"],
  idKinds: ["move", "moveBox"],
});
