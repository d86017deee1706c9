/**
 * Optimistic apply: what the screens show is the server's rows (from shapes) with the device's own
 * outbox ops replayed on top, in push order. Server rows are never edited locally, so dropping an
 * op's optimistic copy (a `dropped` verdict, or its txid arriving on a shape: sync/SPEC.md PU7) is
 * just removing the op from the outbox. Pure functions: no Dexie, no clock.
 */
import { isMoveOp, type MoveOp, type Op } from "../../sync/ops.js";
import type { TemplateShapeRow } from "../../sync/shape-rows.js";
import type { InboxRow, PlaceRow, ThingRow } from "../db/rows.js";
import { acceptSuggestion, confirmField } from "./suggestion-ops.js";
import { applyLoanCreate } from "./loan-split.js";
import { applyPhotoOp, withPhotosOf } from "./photo-overlay.js";

/** A row as a screen sees it: `pending` while one of this device's ops about it is unconfirmed. */
export type View<T> = T & { pending?: boolean };

export interface LocalState {
  things: Map<string, View<ThingRow>>;
  places: Map<string, View<PlaceRow>>;
  inbox: Map<string, View<InboxRow>>;
  /** Templates the device holds (a `templates` table, where the app keeps one): a new thing starts from one. */
  templates: Map<string, View<TemplateShapeRow>>;
  /** Locations where the person's own captures go straight in (capture-settings.ts): accepted as they arrive. */
  straightIn?: ReadonlySet<string>;
}

const stamps = (op: Op) => ({ rowVersion: 0, createdAt: op.at, updatedAt: op.at, deletedAt: null });

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

function newThing(op: Op & { name: "thing.create" | "thing.capture" }, templates: LocalState["templates"]): View<ThingRow> {
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

/** A patch without the keys it leaves alone (`{name: undefined}` means "not changed"). */
function defined<T extends object>(patch: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** A `fields` patch merges by key, and null clears a key (as the server writes it: server/modules/things/values.ts). */
export function mergeFields(before: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...before };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

function edit<T extends object>(map: Map<string, View<T>>, id: string, change: (row: View<T>) => View<T>): void {
  const row = map.get(id);
  if (row) map.set(id, { ...change(row), pending: true });
}

/** Applies one op to the local state (mutating the maps; rows are replaced, never edited). */
export function applyOp(state: LocalState, op: Exclude<Op, MoveOp>): void {
  switch (op.name) {
    case "thing.create":
      state.things.set(op.args.id, newThing(op, state.templates));
      return;
    case "thing.capture": {
      const thing = newThing(op, state.templates);
      // Where the person's own captures go straight in, the server accepts the draft as it arrives.
      if (state.straightIn?.has(op.locationId)) {
        state.things.set(op.args.id, { ...thing, lifecycle: "active" });
        return;
      }
      state.things.set(op.args.id, thing);
      // The server files every capture as a `draft` inbox item with the thing's id.
      state.inbox.set(op.args.id, {
        id: op.args.id,
        locationId: op.locationId,
        kind: "draft",
        status: "open",
        thingId: op.args.id,
        batchId: op.args.batchId ?? op.args.id,
        capturedAt: op.at,
        createdBy: null,
        payload: { photos: (op.args.photoFileIds ?? []).map((fileId) => ({ fileId })) },
        undoEventId: null,
        resolvedAt: null,
        resolvedBy: null,
        ...stamps(op),
        pending: true,
      });
      return;
    }
    case "receipt.capture":
      // The server files the receipt as a `receipt` item with the purchase's id; it fills in when read.
      state.inbox.set(op.args.id, {
        id: op.args.id,
        locationId: op.locationId,
        kind: "receipt",
        status: "open",
        thingId: null,
        batchId: op.args.batchId ?? op.args.id,
        capturedAt: op.at,
        createdBy: null,
        payload: { receipt: { purchaseId: op.args.id, pages: op.args.photoFileIds.map((fileId) => ({ fileId })), lines: [] } },
        undoEventId: null,
        resolvedAt: null,
        resolvedBy: null,
        ...stamps(op),
        pending: true,
      });
      return;
    case "thing.update": {
      const { quantity, fields, ...rest } = op.args.patch;
      edit(state.things, op.args.id, (t) => ({
        ...t,
        ...defined(rest),
        ...(quantity !== undefined ? { quantity: String(quantity) } : {}),
        ...(fields ? { fields: mergeFields(t.fields, fields) } : {}),
        updatedAt: op.at,
      }));
      return;
    }
    case "thing.move":
      edit(state.things, op.args.id, (t) => ({ ...t, placeId: op.args.placeId ?? null, containerId: op.args.containerId ?? null, updatedAt: op.at }));
      return;
    case "thing.delete":
      state.things.delete(op.args.id);
      return;
    case "thing.photo.add":
    case "thing.photo.remove":
    case "thing.photo.cover":
      edit(state.things, op.args.id, (t) => ({ ...applyPhotoOp(t, op), updatedAt: op.at }));
      return;
    // Answers to AI suggestions: the value shows at once, offline too (suggestion-ops.ts).
    case "thing.suggestion.accept": {
      const { field, extractionId } = op.args;
      edit(state.things, op.args.id, (t) => ({ ...acceptSuggestion(t, field, extractionId), updatedAt: op.at }));
      return;
    }
    case "thing.field.confirm":
      edit(state.things, op.args.id, (t) => confirmField(t, op.args.field));
      return;
    case "place.create":
      state.places.set(op.args.id, {
        id: op.args.id,
        locationId: op.locationId,
        parentId: op.args.parentId ?? null,
        kindId: op.args.kindId ?? null,
        name: op.args.name,
        isUnplaced: false,
        fields: {},
        shortCode: null,
        ...stamps(op),
        pending: true,
      });
      return;
    case "place.update": {
      const { fields, ...rest } = op.args.patch as typeof op.args.patch & { fields?: Record<string, unknown> };
      edit(state.places, op.args.id, (p) => ({ ...p, ...defined(rest), ...(fields ? { fields: mergeFields(p.fields, fields) } : {}), updatedAt: op.at }));
      return;
    }
    case "place.delete":
      // A place that still holds something is refused by the server; the drop brings it back.
      state.places.delete(op.args.id);
      return;
    case "inbox.accept": {
      const item = state.inbox.get(op.args.id);
      state.inbox.delete(op.args.id);
      if (item?.thingId) edit(state.things, item.thingId, (t) => (t.lifecycle === "draft" ? { ...t, lifecycle: "active" as const } : t));
      return;
    }
    case "inbox.dismiss": {
      const item = state.inbox.get(op.args.id);
      state.inbox.delete(op.args.id);
      if (item?.kind === "draft" && item.thingId && state.things.get(item.thingId)?.lifecycle === "draft") state.things.delete(item.thingId);
      return;
    }
    case "inbox.merge": {
      const item = state.inbox.get(op.args.id);
      state.inbox.delete(op.args.id);
      const draft = item?.thingId ? state.things.get(item.thingId) : undefined;
      if (item?.thingId) state.things.delete(item.thingId);
      if (draft?.photoFileIds?.length) edit(state.things, op.args.into, (t) => withPhotosOf(t, draft));
      return;
    }
    // Registry ops change no thing, place or inbox item; their optimistic rows: optimistic-registries.ts.
    case "type.create":
    case "type.update":
    case "type_field.create":
    case "type_field.update":
    case "type_field.archive":
    case "place_kind.create":
    case "place_kind.update":
    case "brand.create":
    case "tag.create":
      return;
    case "template.create":
    case "template.update":
    case "template.delete":
      applyTemplateOp(state, op);
      return;
    // No thing, place or inbox item changes here: their screens read their own tables (a return's join: loan-ops.ts).
    case "loan.return":
    case "loan.update":
    case "meter.create":
    case "meter.update":
    case "meter.delete":
    case "reading.capture":
      return;
    case "boxcheck.record":
      applyBoxCheck(state, op);
      return;
    case "loan.create":
      return applyLoanCreate(state, op);
    case "code.claim": {
      // The claimed label becomes what the box or place shows and answers to (the old code still resolves).
      const shortCode = op.args.code;
      if (op.args.kind === "thing") edit(state.things, op.args.id, (r) => ({ ...r, shortCode }));
      else edit(state.places, op.args.id, (r) => ({ ...r, shortCode }));
      return;
    }
  }
}

/** Milliseconds of a timestamp as shapes ("2026-11-22 12:00:00.1+00") or ops (ISO 8601) carry it; NaN if neither. */
export function timeMs(at: string): number {
  return Date.parse(at.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
}

/**
 * A box check as the server applies it (server/modules/box-checks/): a sighting only moves
 * `lastSeenAt` later and clears a "not here" from before it; "not here" makes a thing uncertain
 * unless it was seen after that; things found in the box move into it.
 */
function applyBoxCheck(state: LocalState, op: Op & { name: "boxcheck.record" }): void {
  const { containerId, at, seen = [], notHere = [], split = [], movedIn = [] } = op.args;
  const when = timeMs(at);
  const sight = (t: View<ThingRow>): View<ThingRow> => ({
    ...t,
    lastSeenAt: t.lastSeenAt && timeMs(t.lastSeenAt) >= when ? t.lastSeenAt : at,
    missingSince: t.missingSince && timeMs(t.missingSince) > when ? t.missingSince : null,
  });
  for (const id of [containerId, ...seen, ...split.map((s) => s.thingId)]) edit(state.things, id, sight);
  for (const id of movedIn) edit(state.things, id, (t) => ({ ...sight(t), placeId: null, containerId }));
  for (const id of notHere)
    edit(state.things, id, (t) =>
      t.lastSeenAt && timeMs(t.lastSeenAt) > when ? t : { ...t, missingSince: t.missingSince && timeMs(t.missingSince) <= when ? t.missingSince : at },
    );
}

/** Template ops on the templates the device holds (the server fills a new template's payload from the thing). */
function applyTemplateOp(state: LocalState, op: Op & { name: "template.create" | "template.update" | "template.delete" }): void {
  switch (op.name) {
    case "template.create":
      return;
    case "template.update": {
      const { name, locationIds } = op.args.patch;
      edit(state.templates, op.args.id, (t) => ({ ...t, ...(name !== undefined ? { name } : {}), ...(locationIds ? { locationIds } : {}), updatedAt: op.at }));
      return;
    }
    case "template.delete":
      state.templates.delete(op.args.id);
      return;
  }
}

/** Replays ops (in push order) over server rows. */
export function overlay(
  server: { things?: ThingRow[]; places?: PlaceRow[]; inbox?: InboxRow[]; templates?: TemplateShapeRow[] },
  ops: Op[],
  straightIn?: ReadonlySet<string>,
): LocalState {
  const state: LocalState = {
    ...(straightIn ? { straightIn } : {}),
    things: new Map((server.things ?? []).map((r) => [r.id, r])),
    places: new Map((server.places ?? []).map((r) => [r.id, r])),
    inbox: new Map((server.inbox ?? []).map((r) => [r.id, r])),
    templates: new Map((server.templates ?? []).map((r) => [r.id, r])),
  };
  for (const op of ops) if (!isMoveOp(op)) applyOp(state, op);
  return state;
}
