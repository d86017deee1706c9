/**
 * "My own captures go straight in", on the device: the server decides when a capture arrives
 * (server/modules/things/straight-in.ts); the device keeps a copy of the person's setting per
 * location (read whenever online, written when changed) so that a capture made offline shows as
 * it will be: an active thing, no inbox item (optimistic.ts).
 */
import { captureSettingsSchema, type CaptureSettings } from "../../shared/capture-settings.js";
import { getMeta, setMeta, type InventoryDb } from "../db/database.js";
import { api } from "./api.js";

const KEY = "captureStraightIn";

const path = (locationId: string) => `/api/v1/locations/${locationId}/capture-settings`;

/** Locations where the device last knew the person's own captures go straight in. */
export async function straightInLocations(db: InventoryDb): Promise<Set<string>> {
  const kept = (await getMeta<Record<string, boolean>>(db, KEY)) ?? {};
  return new Set(Object.keys(kept).filter((id) => kept[id]));
}

async function keep(db: InventoryDb, locationId: string, s: CaptureSettings): Promise<CaptureSettings> {
  const kept = (await getMeta<Record<string, boolean>>(db, KEY)) ?? {};
  await setMeta(db, KEY, { ...kept, [locationId]: s.straightIn });
  return s;
}

/** Reads the setting from the server and keeps it (throws ApiError, `offline` with no network). */
export async function refreshCaptureSettings(db: InventoryDb, locationId: string): Promise<CaptureSettings> {
  return keep(db, locationId, captureSettingsSchema.parse(await api("GET", path(locationId))));
}

/** Changes the setting on the server (it needs a connection) and keeps what the server answered. */
export async function putCaptureSettings(db: InventoryDb, locationId: string, s: CaptureSettings): Promise<CaptureSettings> {
  return keep(db, locationId, captureSettingsSchema.parse(await api("PUT", path(locationId), s)));
}
