/** Templates things are made from. */
import { defineModule } from "../manifest.js";
import { templateCreate, templateDelete, templateUpdate } from "./commands.js";
import { templateRoutes } from "./routes.js";

export const templatesModule = defineModule({
  name: "templates",
  routes: templateRoutes,
  commands: [templateCreate, templateUpdate, templateDelete],
  shapes: ["templates"],
  idKinds: ["template"],
});
