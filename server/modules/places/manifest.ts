/** Places: the rooms and shelves of a location, as a tree. */
import { defineModule } from "../manifest.js";
import { placeCreate, placeDelete, placeUpdate } from "./commands.js";
import { placeRoutes } from "./routes.js";

export const placesModule = defineModule({
  name: "places",
  routes: placeRoutes,
  commands: [placeCreate, placeUpdate, placeDelete],
  shapes: ["places"],
  idKinds: ["place"],
});
