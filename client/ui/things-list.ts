/**
 * The Things screen's rows: the first things of a location by name, read as one bounded page from
 * the `[locationId+nameKey]` index with this device's waiting ops on top, so the list costs the
 * same with 100 things or 100,000 and shows while the first sync is still storing them.
 */
import { Dexie } from "dexie";
import type { Op } from "../../sync/ops.js";
import type { InventoryDb } from "../db/database.js";
import { thingNameKey, type InboxRow, type LocationRow, type PlaceRow, type ThingRow, type TypeRow } from "../db/rows.js";
import { overlay, type View } from "../sync/optimistic.js";

/** Most things the list shows at once. */
export const THINGS_LIST_LIMIT = 500;

export interface ThingsFilter {
  /** Matched in name, serial, model or short code, ignoring case. */
  q: string;
  /** Only things directly in this place ("" for all). */
  placeId: string;
  /** How many to show; THINGS_LIST_LIMIT unless the person asked for more. */
  limit?: number;
}

export interface ThingsList {
  location: LocationRow | undefined;
  places: View<PlaceRow>[];
  types: TypeRow[];
  inboxCount: number;
  /** The first matching things by name (at most the filter's limit), as this device sees them. */
  things: View<ThingRow>[];
  /** Whether more things match than are shown. */
  more: boolean;
  /** Those things and every container they sit in (for their paths), by id. */
  known: Map<string, View<ThingRow>>;
}

/** Everything a person may type to find a thing, lower-cased once. */
const haystack = (th: ThingRow) => [th.name, th.serial, th.model, th.shortCode].filter(Boolean).join(" ").toLocaleLowerCase();

function matcher({ q, placeId }: ThingsFilter): ((th: ThingRow) => boolean) | undefined {
  const needle = q.trim().toLocaleLowerCase();
  if (!needle && !placeId) return undefined;
  return (th) => (!placeId || th.placeId === placeId) && (!needle || haystack(th).includes(needle));
}

/** List order: the index's order, (nameKey, id), computed from the name so waiting renames sort right. */
function byName(a: ThingRow, b: ThingRow): number {
  const ka = thingNameKey(a.name);
  const kb = thingNameKey(b.name);
  return ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Things an op creates, changes or removes (an inbox decision may change its draft thing). */
function touchedThings(ops: Op[], inbox: Map<string, InboxRow>): string[] {
  const ids = new Set<string>();
  for (const op of ops) {
    switch (op.name) {
      case "thing.create":
      case "thing.capture":
      case "thing.update":
      case "thing.move":
      case "thing.delete":
      case "thing.photo.add":
      case "thing.photo.remove":
      case "thing.photo.cover":
        ids.add(op.args.id);
        break;
      // Lending part of a quantity splits the thing (client/sync/loan-ops.ts).
      case "loan.create":
        ids.add(op.args.thingId);
        break;
      case "inbox.accept":
      case "inbox.dismiss":
      case "inbox.merge": {
        const thingId = inbox.get(op.args.id)?.thingId;
        if (thingId) ids.add(thingId);
        break;
      }
      case "place.create":
      case "place.update":
      case "place.delete":
      case "template.create":
      case "template.update":
      case "template.delete":
        break;
      default:
        // Registry ops (types, fields, place kinds, brands, tags, templates) touch no thing.
        break;
    }
  }
  return [...ids];
}

export async function readThingsList(db: InventoryDb, locationId: string, filter: ThingsFilter): Promise<ThingsList> {
  const [location, places, inbox, types, outbox] = await Promise.all([
    db.locations.get(locationId),
    db.places.where("locationId").equals(locationId).toArray(),
    db.inbox.where("locationId").equals(locationId).toArray(),
    // Types are the owner account's registry, shared by its locations.
    db.types.toArray(),
    db.outbox.orderBy("seq").toArray(),
  ]);
  const ops = outbox.filter((e) => e.state !== "rejected" && e.op.locationId === locationId).map((e) => e.op);
  const match = matcher(filter);
  const limit = filter.limit ?? THINGS_LIST_LIMIT;
  // Each op can push at most one stored thing out of the first rows (a rename, a move, a delete),
  // so reading that many more than the limit keeps the page exact; the rows the ops touch are read
  // too, wherever they sort.
  const inLocation = db.things.where("[locationId+nameKey]").between([locationId, Dexie.minKey], [locationId, Dexie.maxKey]);
  const [page, touched] = await Promise.all([
    // One more than shown, to know whether there are more.
    (match ? inLocation.filter(match) : inLocation).limit(limit + 1 + ops.length).toArray(),
    db.things.bulkGet(touchedThings(ops, new Map(inbox.map((i) => [i.id, i])))),
  ]);
  const state = overlay({ things: [...page, ...touched.filter((t): t is ThingRow => !!t)], places, inbox }, ops);
  const matching = [...state.things.values()].filter((th) => th.locationId === locationId && (!match || match(th))).sort(byName);
  const things = matching.slice(0, limit);
  return {
    location,
    places: [...state.places.values()],
    types: types.filter((ty) => ty.accountId === location?.accountId),
    inboxCount: [...state.inbox.values()].filter((i) => i.status === "open").length,
    things,
    more: matching.length > limit,
    known: await withContainers(db, state.things, things),
  };
}

/** `known` plus the containers `things` sit in, up to the top (containers nest at most 20 deep). */
async function withContainers(db: InventoryDb, known: Map<string, View<ThingRow>>, things: ThingRow[]): Promise<Map<string, View<ThingRow>>> {
  const all = new Map(known);
  let missing = [...new Set(things.flatMap((th) => (th.containerId && !all.has(th.containerId) ? [th.containerId] : [])))];
  for (let depth = 0; missing.length && depth < 20; depth++) {
    const found = (await db.things.bulkGet(missing)).filter((t): t is ThingRow => !!t);
    for (const t of found) all.set(t.id, t);
    missing = [...new Set(found.flatMap((th) => (th.containerId && !all.has(th.containerId) ? [th.containerId] : [])))];
  }
  return all;
}
