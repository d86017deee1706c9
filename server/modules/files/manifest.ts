/** Files: uploaded photos and documents, their thumbnails and storage. */
import { defineModule } from "../manifest.js";
import { fileCreate } from "./commands.js";
import { fileRoutes } from "./routes.js";

export const filesModule = defineModule({
  name: "files",
  routes: fileRoutes,
  commands: [fileCreate],
  idKinds: ["file"],
});
