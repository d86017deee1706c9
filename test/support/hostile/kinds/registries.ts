/** registries: types of the tenant's own making (a built-in one cannot be renamed), a place kind, a brand, a field, a tag. */
import { ok, type MakerContext, type ModuleKinds } from "./types.js";

const newType = async (t: MakerContext, body: object) => (await ok(t.owner.post(`/api/v1/locations/${t.location}/types`, body), "type")).id as string;

export const registryKinds: ModuleKinds = {
  type: { table: "types", make: async (t) => void (t.ids.type = await newType(t, { name: `${t.name} Gadget` })) },
  parentType: { table: "types", make: async (t) => void (t.ids.parentType = await newType(t, { name: `${t.name} Device` })) },
  groupType: { table: "types", make: async (t) => void (t.ids.groupType = await newType(t, { name: `${t.name} Insured`, isGroup: true })) },
  placeKind: {
    table: "place_kinds",
    make: async (t) =>
      void (t.ids.placeKind = (await ok(t.owner.post(`/api/v1/locations/${t.location}/place-kinds`, { name: `${t.name} Shed` }), "place kind")).id),
  },
  brand: {
    table: "brands",
    make: async (t) => void (t.ids.brand = (await ok(t.owner.post(`/api/v1/locations/${t.location}/brands`, { name: `${t.name} Brand` }), "brand")).id),
  },
  // A field archived by a request can still be named (and changed): it stays usable.
  typeField: {
    table: "type_fields",
    make: async (t) =>
      void (t.ids.typeField = (
        await ok(t.owner.post(`/api/v1/types/${t.ids.type}/fields`, { key: "hostile_note", label: `${t.name} note`, kind: "text" }), "type field")
      ).id),
  },
  tag: {
    table: "tags",
    make: async (t) => void (t.ids.tag = (await ok(t.owner.post(`/api/v1/locations/${t.location}/tags`, { name: `${t.name} Tag` }), "tag")).id),
  },
};
