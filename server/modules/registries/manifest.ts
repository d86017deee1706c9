/** The account's registries: types and their fields, place kinds, brands and tags. */
import { defineModule } from "../manifest.js";
import { typeFieldArchive, typeFieldCreate, typeFieldUpdate } from "./field-commands.js";
import { brandCreate, placeKindCreate, placeKindUpdate, tagCreate } from "./kind-commands.js";
import { registryRoutes } from "./routes.js";
import { typeCreate, typeUpdate } from "./type-commands.js";

export const registriesModule = defineModule({
  name: "registries",
  routes: registryRoutes,
  commands: [typeCreate, typeUpdate, typeFieldCreate, typeFieldUpdate, typeFieldArchive, placeKindCreate, placeKindUpdate, brandCreate, tagCreate],
  shapes: ["place_kinds", "types", "type_fields", "brands", "tags"],
  idKinds: ["placeKind", "type", "parentType", "groupType", "typeField", "brand", "tag"],
});
