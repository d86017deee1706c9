/**
 * What screens read: Dexie live queries (they re-run when any tab writes the tables they read)
 * and the optimistic view of a location (server rows with this device's waiting ops on top).
 */
import { liveQuery } from "dexie";
import { useEffect, useState } from "react";
import type { Role } from "../../shared/roles.js";
import type { InventoryDb, OutboxEntry } from "../db/database.js";
import type { InboxRow, LocationRow, PlaceRow, ThingRow, TypeRow } from "../db/rows.js";
import { overlayRegistries } from "../sync/optimistic-registries.js";
import { straightInLocations } from "../sync/capture-settings.js";
import { overlay, type View } from "../sync/optimistic.js";
import { readStatus, type SyncStatus } from "../sync/status.js";
import type { SearchLabels } from "./search/thing-search.js";
import { readThingsList, type ThingsFilter, type ThingsList } from "./things-list.js";

/** Subscribes to a Dexie query; `undefined` until its first answer. */
export function useLive<T>(query: () => Promise<T>, deps: readonly unknown[]): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    const sub = liveQuery(query).subscribe({ next: setValue, error: (err: unknown) => console.error(err) });
    return () => sub.unsubscribe();
    // The caller lists what the query depends on, as with useEffect.
  }, deps);
  return value;
}

export interface LocationData {
  location: LocationRow | undefined;
  role: Role | undefined;
  things: View<ThingRow>[];
  places: View<PlaceRow>[];
  inbox: View<InboxRow>[];
  types: TypeRow[];
}

/** Everything the screens of one location show, with this device's waiting ops applied. */
export function useLocationData(db: InventoryDb, userId: string, locationId: string): LocationData | undefined {
  return useLive(async () => {
    const [locations, memberships, things, places, inbox, types, templates, outbox, straightIn] = await Promise.all([
      db.locations.toArray(),
      db.memberships.toArray(),
      db.things.where("locationId").equals(locationId).toArray(),
      db.places.where("locationId").equals(locationId).toArray(),
      db.inbox.where("locationId").equals(locationId).toArray(),
      // Types are the owner account's registry, shared by its locations.
      db.types.toArray(),
      // A capture from a template shows the template's values at once (optimistic.ts withTemplate).
      db.templates.toArray(),
      db.outbox.orderBy("seq").toArray(),
      // A capture made here shows as it will be where the person's own captures go straight in.
      straightInLocations(db),
    ]);
    const location = locations.find((l) => l.id === locationId);
    const waiting = outbox.filter((e) => e.state !== "rejected").map((e) => e.op);
    const ops = waiting.filter((op) => op.locationId === locationId);
    const state = overlay({ things, places, inbox, templates }, ops, straightIn);
    // A type made on this device (through any location of the account) is offered at once.
    const accountOf = new Map(locations.map((l) => [l.id, l.accountId]));
    const allTypes = overlayRegistries({ types }, waiting, (id) => accountOf.get(id)).types;
    const role = memberships.find((m) => m.locationId === locationId && m.userId === userId)?.role;
    return {
      location,
      role,
      things: [...state.things.values()],
      places: [...state.places.values()],
      inbox: [...state.inbox.values()].filter((i) => i.status === "open"),
      types: [...allTypes.values()].filter((ty) => ty.accountId === location?.accountId && !ty.deletedAt),
    };
  }, [db, userId, locationId]);
}

/**
 * The Things screen: a bounded page of a location's things by name (things-list.ts). `labels`
 * name built-in types and places in the person's language (searched as shown); `lang` says when
 * they change.
 */
export function useThingsList(db: InventoryDb, locationId: string, filter: ThingsFilter, labels: SearchLabels, lang: string): ThingsList | undefined {
  return useLive(() => readThingsList(db, locationId, filter, labels), [db, locationId, filter.q, filter.placeId, filter.limit, lang]);
}

export function useOutbox(db: InventoryDb): OutboxEntry[] | undefined {
  return useLive(() => db.outbox.orderBy("seq").toArray(), [db]);
}

export function useSyncStatus(db: InventoryDb): SyncStatus | undefined {
  return useLive(() => readStatus(db), [db]);
}

/** navigator.onLine, kept current. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener("online", on);
    window.addEventListener("offline", off);
    return () => {
      window.removeEventListener("online", on);
      window.removeEventListener("offline", off);
    };
  }, []);
  return online;
}
