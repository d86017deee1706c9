/**
 * The Things screen's rows: the first things of a location by name, read as one bounded page from
 * the `[locationId+nameKey]` index with this device's waiting ops on top, so the list costs the
 * same with 100 things or 100,000 and shows while the first sync is still storing them.
 *
 * A search or a place filter reads every thing of the location instead: a thing is found by the
 * names of the places and containers it sits in (search/thing-search.ts), and a container's
 * contents have no place of their own, so only the whole location answers either
 * (test/bench/search.ts has the figures for a few thousand things).
 */
import { Dexie } from "dexie";
import type { Op } from "../../sync/ops.js";
import type { InventoryDb } from "../db/database.js";
import { thingNameKey, type InboxRow, type LocationRow, type PlaceRow, type ThingRow, type TypeRow } from "../db/rows.js";
import { straightInLocations } from "../sync/capture-settings.js";
import { overlayRegistries } from "../sync/optimistic-registries.js";
import { overlay, type View } from "../sync/optimistic.js";
import { searchTerms } from "./search/fold.js";
import { placeFilter, ThingSearch, type SearchLabels } from "./search/thing-search.js";

/** Most things the list shows at once. */
export const THINGS_LIST_LIMIT = 500;

export interface ThingsFilter {
  /** Every word somewhere in what a thing is found by (search/thing-search.ts), folded (search/fold.ts). */
  q: string;
  /** Only things in this place, in the places inside it, or in containers there ("" for all). */
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

/** Names as stored, for callers without the person's language (tests, the bench). */
export const PLAIN_LABELS: SearchLabels = { type: (ty) => ty.name ?? ty.builtinKey ?? "", place: (p) => p.name };

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

export async function readThingsList(db: InventoryDb, locationId: string, filter: ThingsFilter, labels: SearchLabels = PLAIN_LABELS): Promise<ThingsList> {
  const [location, places, inbox, types, outbox] = await Promise.all([
    db.locations.get(locationId),
    db.places.where("locationId").equals(locationId).toArray(),
    db.inbox.where("locationId").equals(locationId).toArray(),
    // Types are the owner account's registry, shared by its locations.
    db.types.toArray(),
    db.outbox.orderBy("seq").toArray(),
  ]);
  const ops = outbox.filter((e) => e.state !== "rejected" && e.op.locationId === locationId).map((e) => e.op);
  const limit = filter.limit ?? THINGS_LIST_LIMIT;
  const accountTypes = types.filter((ty) => ty.accountId === location?.accountId);
  const filtered = filter.placeId !== "" || searchTerms(filter.q).length > 0;
  const inLocation = db.things.where("[locationId+nameKey]").between([locationId, Dexie.minKey], [locationId, Dexie.maxKey]);
  // Unfiltered: each op can push at most one stored thing out of the first rows (a rename, a move,
  // a delete), so reading that many more than the limit keeps the page exact; the rows the ops
  // touch are read too, wherever they sort. One more than shown, to know whether there are more.
  const [stored, touched, registries] = await Promise.all([
    filtered ? inLocation.toArray() : inLocation.limit(limit + 1 + ops.length).toArray(),
    db.things.bulkGet(filtered ? [] : touchedThings(ops, new Map(inbox.map((i) => [i.id, i])))),
    filtered ? Promise.all([db.locations.toArray(), db.brands.toArray(), db.tags.toArray(), db.type_fields.toArray()]) : undefined,
  ]);
  const state = overlay({ things: [...stored, ...touched.filter((t): t is ThingRow => !!t)], places, inbox }, ops, await straightInLocations(db));
  let match: ((th: ThingRow) => boolean) | undefined;
  if (registries) {
    // The account's registries as this device sees them: a tag or type made offline, through any
    // location of the account, is searched at once.
    const [locations, brands, tags, typeFields] = registries;
    const accountOf = new Map(locations.map((l) => [l.id, l.accountId]));
    const waiting = outbox.filter((e) => e.state !== "rejected").map((e) => e.op);
    const reg = overlayRegistries({ types, brands, tags, typeFields }, waiting, (id) => accountOf.get(id));
    const mine = <T extends { accountId: string; deletedAt: string | null }>(rows: Map<string, T>) =>
      [...rows.values()].filter((r) => r.accountId === location?.accountId && !r.deletedAt);
    const search = new ThingSearch(
      {
        things: state.things,
        places: state.places,
        types: mine(reg.types),
        brands: mine(reg.brands),
        tags: mine(reg.tags),
        fields: [...reg.typeFields.values()],
      },
      labels,
    );
    const byWords = search.matcher(filter.q);
    const byPlace = placeFilter(filter.placeId, state.places, state.things);
    match = (th) => (!byPlace || byPlace(th)) && (!byWords || byWords(th));
  }
  const matching = [...state.things.values()].filter((th) => th.locationId === locationId && (!match || match(th))).sort(byName);
  const things = matching.slice(0, limit);
  return {
    location,
    places: [...state.places.values()],
    types: accountTypes,
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
