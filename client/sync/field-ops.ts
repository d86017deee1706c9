/**
 * Scans read on the device: against its own store first, with the same rules the server uses
 * (shared/codes.ts classifyScan), so a label resolves in a cellar with no signal. A box check and a
 * label claim are ops: client/ops/field/.
 */
import { classifyScan, type CodeKind, type ScanResult } from "../../shared/codes.js";
import type { InventoryDb } from "../db/database.js";
import type { ThingRow } from "../db/rows.js";
import { api, ApiError } from "./api.js";

/** Claims this device made and the server has not confirmed yet: code -> what it was claimed for. */
async function pendingClaims(db: InventoryDb): Promise<Map<string, { kind: CodeKind; id: string; locationId: string }>> {
  const out = new Map<string, { kind: CodeKind; id: string; locationId: string }>();
  for (const e of await db.outbox.toArray()) {
    if (e.state !== "rejected" && e.op.name === "code.claim") out.set(e.op.args.code, { kind: e.op.args.kind, id: e.op.args.id, locationId: e.op.locationId });
  }
  return out;
}

const live = <T extends { deletedAt: string | null }>(r: T | undefined): r is T => !!r && !r.deletedAt;

/**
 * What a code names on this device: a thing's or place's own code, a label claimed on this device
 * (even before it is pushed), a label row from the `codes` shape (printed labels only: a claimed or
 * unclaimed sheet label); `not_found` when the device knows nothing of it.
 */
export async function resolveCodeLocally(db: InventoryDb, code: string): Promise<ScanResult> {
  const claimed = (await pendingClaims(db)).get(code);
  if (claimed) return { outcome: "open", target: claimed };
  const thing = (await db.things.filter((t) => t.shortCode === code).toArray()).find(live);
  if (thing) return { outcome: "open", target: { kind: "thing", id: thing.id, locationId: thing.locationId } };
  const place = (await db.places.filter((p) => p.shortCode === code).toArray()).find(live);
  if (place) return { outcome: "open", target: { kind: "place", id: place.id, locationId: place.locationId } };
  const row = (await db.codes.where("code").equals(code).toArray()).find(live);
  if (row?.thingId) return { outcome: "open", target: { kind: "thing", id: row.thingId, locationId: row.locationId } };
  if (row?.placeId) return { outcome: "open", target: { kind: "place", id: row.placeId, locationId: row.locationId } };
  if (row) return { outcome: "claim", locationId: row.locationId, code };
  return { outcome: "not_found" };
}

/** Things carrying a product barcode as their serial, across the locations the device holds. */
async function thingsWithSerial(db: InventoryDb, code: string): Promise<ThingRow[]> {
  return (await db.things.filter((t) => !t.deletedAt && t.serial?.replace(/\s/g, "") === code).toArray()).slice(0, 50);
}

/** Reads a scan offline: the same outcomes as POST /scan/resolve, from the device's store. */
export async function resolveScanLocally(db: InventoryDb, text: string, format?: string): Promise<ScanResult> {
  const read = classifyScan(text, format);
  switch (read.type) {
    case "code":
      return resolveCodeLocally(db, read.code);
    case "location": {
      const loc = await db.locations.get(read.locationId);
      return live(loc) ? { outcome: "switch_location", locationId: loc.id } : { outcome: "not_found" };
    }
    case "barcode": {
      const found = await thingsWithSerial(db, read.code);
      if (found.length === 1) return { outcome: "open", target: { kind: "thing", id: found[0]!.id, locationId: found[0]!.locationId } };
      if (found.length > 1) {
        const names = new Map((await db.locations.toArray()).map((l) => [l.id, l.name]));
        return {
          outcome: "candidates",
          candidates: found.map((t) => ({
            locationName: names.get(t.locationId) ?? "",
            locationId: t.locationId,
            name: t.name ?? "",
            kind: "thing",
            id: t.id,
          })),
        };
      }
      return { outcome: "barcode", barcode: { code: read.code, lookupEnabled: false } };
    }
    case "text":
      return { outcome: "text", text: read.text };
  }
}

/**
 * The device's answer, and the server's when the device knows nothing of a code and the network is
 * there (a code of a location this device has not synced, or a label printed a minute ago).
 */
export async function resolveScan(db: InventoryDb, text: string, format?: string): Promise<ScanResult> {
  const local = await resolveScanLocally(db, text, format);
  if (local.outcome !== "not_found" || !navigator.onLine) return local;
  try {
    return await api<ScanResult>("POST", "/api/v1/scan/resolve", { text: text.slice(0, 4096), ...(format ? { format: format.slice(0, 40) } : {}) });
  } catch (err) {
    if (err instanceof ApiError) return local;
    throw err;
  }
}
