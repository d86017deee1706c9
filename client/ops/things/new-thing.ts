/** A thing made on the device (thing.create and thing.capture), as the server will make it. Pure. */
import type { Op } from "../../../sync/ops.js";
import type { ThingRow } from "../../db/rows.js";
import type { LocalState } from "../views.js";
import { stamps, type View } from "../rows.js";

/**
 * The args with the template's values filled in where they leave a key out (the server's rule:
 * server/modules/things/from-template.ts), when the device holds the template; the args alone otherwise.
 * The server also drops values that no longer fit (a deleted tag, an archived field); the device
 * shows them until the server's row arrives.
 */
function withTemplate<A extends { templateId?: string | undefined }>(args: A, locationId: string, templates: LocalState["templates"]): A {
  const t = args.templateId ? templates.get(args.templateId) : undefined;
  if (!t || !t.locationIds.includes(locationId)) return args;
  const out: Record<string, unknown> = { ...args };
  for (const [key, value] of Object.entries(t.payload)) if (key !== "fields" && out[key] === undefined) out[key] = value;
  const fields = t.payload.fields as Record<string, unknown> | undefined;
  if (fields) out.fields = { ...fields, ...(out.fields as Record<string, unknown> | undefined) };
  return out as A;
}

export function newThing(op: Op & { name: "thing.create" | "thing.capture" }, templates: LocalState["templates"]): View<ThingRow> {
  const a = withTemplate(op.args, op.locationId, templates);
  // A capture names fewer keys than a create, but a template fills the same ones in both (the lifecycle stays the capture's draft).
  const create = a as Partial<Extract<Op, { name: "thing.create" }>["args"]>;
  const photos = op.name === "thing.capture" ? (op.args.photoFileIds ?? []) : [];
  return {
    id: a.id,
    locationId: op.locationId,
    placeId: a.placeId ?? null,
    containerId: a.containerId ?? null,
    typeId: a.typeId ?? null,
    name: a.name ?? null,
    description: create.description ?? null,
    quantity: String(a.quantity ?? "1"),
    lifecycle: op.name === "thing.capture" ? "draft" : (create.lifecycle ?? "active"),
    condition: create.condition ?? null,
    brandId: create.brandId ?? null,
    tagIds: a.tagIds ?? [],
    model: create.model ?? null,
    colour: create.colour ?? null,
    serial: create.serial ?? null,
    fields: create.fields ?? {},
    fieldStatus: {},
    shortCode: null,
    isContainer: create.isContainer ?? false,
    // A capture's photos are the thing's, the first its cover (server/modules/things/capture.ts).
    coverFileId: photos[0] ?? null,
    photoFileIds: [...new Set(photos)],
    // The server marks a thing seen where it is put when it is made.
    lastSeenAt: op.at,
    missingSince: null,
    createdBy: null,
    ...stamps(op),
    pending: true,
  };
}
