/** Things: their creation (by hand, from a template or by capture), edits, moves and photos. */
import { defineModule } from "../manifest.js";
import { thingCapture } from "./capture.js";
import { thingDelete, thingMove, thingUpdate } from "./commands.js";
import { thingCreate } from "./create.js";
import { thingPhotoAdd, thingPhotoCover, thingPhotoRemove } from "./photos.js";
import { thingRoutes } from "./routes.js";

export const thingsModule = defineModule({
  name: "things",
  routes: thingRoutes,
  commands: [thingCreate, thingUpdate, thingMove, thingDelete, thingCapture, thingPhotoAdd, thingPhotoRemove, thingPhotoCover],
  // A capture lands as a draft item to review.
  inboxKinds: ["draft"],
  shapes: ["things"],
  // A box is a thing (`container`); a capture batch groups the captures of one session.
  idKinds: ["thing", "container", "batch"],
});
