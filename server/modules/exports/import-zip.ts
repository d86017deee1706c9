/**
 * Restoring an export's zip into an empty location (POST /api/v1/locations/:id/imports): every
 * record of the export comes back (places, things, photos, meters and readings, loans, moves and
 * their boxes, box checks, purchases, inbox items, history and AI calls when exported, trashed and
 * ended rows when exported, and secret values when the owner exported them), each with a new id
 * and every reference to it - in columns and inside JSON alike - following it (`remap`).
 *
 * Into a location of the account the export came from, the registries (types, fields, tags,
 * brands, place kinds, contacts) are the account's own and stay as they are; into another
 * account (a backup restored on a new server), they are restored too, built-in types and place
 * kinds matched to the target's own by their key.
 *
 * Photos are stored first, one at a time, each checked against its recorded sha256; then all rows
 * go in one transaction, so a zip that fails half-way changes nothing.
 *
 * Storage is content-addressed, so a hash alone must never name stored bytes: a file record is
 * restored only when its own bytes are in the zip and hash to its sha256, as an upload's must. An
 * export may lack a file's bytes (a blob gone from the store, counted as the manifest's
 * `missingFiles`), so such a record is left out rather than the whole zip refused: it is counted
 * in `skipped`, and what needs it is left out or loses the reference, as for any row the export
 * did not hold.
 */
import { createHash } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { type Actor, asSystem, withActor } from "../../db/actor.js";
import { rows, sql, type Tx } from "../../db/client.js";
import { locationAccess } from "../../access/location.js";
import { ConflictError, ValidationError } from "../../errors/classes.js";
import type { FileDeps } from "../files/service.js";
import { TABLES } from "./tables.js";
import { EXPORT_FORMAT_VERSION } from "./build.js";
import { eachPhoto, InflateBudget, readRecords, type RestoreRow } from "./zip-read.js";
import { catalogOf, fillDeferred, insertRows, overwriteRow, settleReferences, type Owner, type Scope } from "./restore-rows.js";
import { planTables } from "./restore-plan.js";
import { matchRegistries } from "./restore-registries.js";
import { restoreSecrets, type ExportedSecret } from "./restore-secrets.js";
import { requireWriteRole } from "../../access/role.js";

export interface ZipImportResult {
  places: number;
  things: number;
  photos: number;
  /** Rows restored per table. */
  records: Record<string, number>;
  /** Rows left out per table: they hang on a row the export did not include (a trashed or ended thing it left out), or are file records whose bytes are not in the zip. */
  skipped: Record<string, number>;
  /** Old id -> new id of every restored row, so a caller can follow its records across. */
  ids: Record<string, string>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const UUID_ONLY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const REGISTRIES = TABLES.filter((t) => t.by === "account").map((t) => t.name);
const LOCATION_TABLES = TABLES.filter((t) => t.by === "location").map((t) => t.name);

const RESTORABLE = new Set([...TABLES.map((t) => t.name), "secret_values"]);

/** Every old id the map knows, wherever it stands in the JSON text, becomes its new id. */
const remap = (text: string, ids: Map<string, string>) => text.replace(UUID, (m) => ids.get(m) ?? m);

/** Rows per statement, and their text at most: each statement's JSON stays small whatever the zip. */
const BATCH_ROWS = 500;
const BATCH_TEXT = 8 * 1024 * 1024;

/** The rows `oldIds` of one table as JSON arrays of at most a batch each, ids mapped, with their new ids. */
function* batches(texts: Map<string, string>, oldIds: Iterable<string>, ids: Map<string, string>): Generator<{ json: string; only: string[] }> {
  let part: string[] = [];
  let only: string[] = [];
  let size = 0;
  for (const id of oldIds) {
    const text = remap(texts.get(id)!, ids);
    if (part.length && (part.length >= BATCH_ROWS || size + text.length > BATCH_TEXT)) {
      yield { json: `[${part.join(",")}]`, only };
      [part, only, size] = [[], [], 0];
    }
    part.push(text);
    only.push(ids.get(id)!);
    size += text.length;
  }
  if (part.length) yield { json: `[${part.join(",")}]`, only };
}

/**
 * Runs the writes of one record file: a value the database refuses there (a wrong type, a number
 * out of range, a required field missing, a code repeated) is the zip's fault, not the server's,
 * so it is a 400 naming the file, and the transaction it aborted writes nothing.
 */
async function writing<T>(file: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const cause = ((err as { cause?: unknown }).cause ?? err) as { code?: unknown; message?: unknown };
    if (typeof cause.code !== "string" || !/^2[23]/.test(cause.code)) throw err;
    const why = typeof cause.message === "string" ? `: ${cause.message.slice(0, 200)}` : "";
    throw new ValidationError(`${file} in the zip holds a value the database refuses${why}.`, {
      entry: file,
      sqlstate: cause.code,
    });
  }
}

interface Manifest {
  version: number;
  accountId: string;
  locationIds: string[];
}

function parseManifest(text: string): Manifest {
  let m: Partial<Manifest>;
  try {
    m = JSON.parse(text) as Partial<Manifest>;
  } catch {
    throw new ValidationError("manifest.json in the zip is not JSON.");
  }
  if (m.version !== EXPORT_FORMAT_VERSION) throw new ValidationError("This export's format version is not one this server reads.");
  if (!Array.isArray(m.locationIds) || m.locationIds.length !== 1 || typeof m.locationIds[0] !== "string" || !UUID_ONLY.test(m.locationIds[0]))
    throw new ValidationError("Only an export of one location can be restored.");
  if (typeof m.accountId !== "string" || !UUID_ONLY.test(m.accountId)) throw new ValidationError("manifest.json names no account.");
  return m as Manifest;
}

async function emptyOrRefuse(tx: Tx, locationId: string): Promise<string> {
  const [state] = await rows<{ busy: number; unplaced: string | null }>(
    tx,
    sql`SELECT (SELECT count(*) FROM things WHERE location_id = ${locationId} AND deleted_at IS NULL)
             + (SELECT count(*) FROM places WHERE location_id = ${locationId} AND deleted_at IS NULL AND NOT is_unplaced) AS busy,
           (SELECT id::text FROM places WHERE location_id = ${locationId} AND is_unplaced) AS unplaced`,
  );
  if (Number(state!.busy) > 0) throw new ConflictError("An export is restored only into an empty location: this one already has places or things.");
  return state!.unplaced!;
}

export async function importZip(deps: FileDeps, actor: Actor, locationId: string, file: string): Promise<ZipImportResult> {
  const { accountId } = await withActor(deps.db, actor, async (tx) => {
    const access = await locationAccess(tx, locationId);
    requireWriteRole(actor, access.role, "admin", "Only the location's owners and admins can restore an export into it.");
    const [l] = await rows<{ account_id: string }>(tx, sql`SELECT account_id::text AS account_id FROM locations WHERE id = ${locationId}`);
    return { accountId: l!.account_id };
  });
  const budget = new InflateBudget();
  const zip = await readRecords(file, RESTORABLE, budget);
  const manifest = parseManifest(zip.manifest);
  const crossAccount = manifest.accountId !== accountId;
  const order = [...(crossAccount ? REGISTRIES : []), ...LOCATION_TABLES].filter((t) => zip.records.has(t));
  if (!order.includes("places") || !order.includes("things"))
    throw new ValidationError("The zip has no places or things records; is it an export of this service?");
  const parsed = new Map(order.map((t) => [t, zip.records.get(t)!.map((r) => r.row)]));
  const texts = new Map(order.map((t) => [t, new Map(zip.records.get(t)!.map((r: RestoreRow) => [r.row.id, r.text]))]));
  await asSystem(deps.db, (tx) => emptyOrRefuse(tx, locationId)); // before storing any photo

  // Photos first, outside the transaction (the store is not transactional; a blob nobody names is harmless).
  const fileRows = new Map((parsed.get("files") ?? []).map((f) => [f.id, f]));
  const verified = new Set<string>();
  await eachPhoto(
    file,
    new Set(fileRows.keys()),
    async (fileId, bytes) => {
      const row = fileRows.get(fileId)!;
      // Hashed before storing: bytes that are not the record's are refused, not kept.
      if (createHash("sha256").update(bytes).digest("hex") !== row.sha256)
        throw new ValidationError(`The photo files/${fileId} in the zip is not the one its record names (its sha256 differs).`);
      await deps.store.put(bytes);
      // The record says what the bytes are; no other stored name (a thumbnail's) comes from the zip.
      texts.get("files")!.set(fileId, JSON.stringify({ ...row, size: bytes.length, thumb_sha256: null }));
      verified.add(fileId);
    },
    budget,
  );
  const photos = verified.size;
  // A file record whose bytes are not in the zip names bytes only a hash stands for: left out.
  const absent = new Set([...fileRows.keys()].filter((id) => !verified.has(id)));

  return asSystem(deps.db, async (tx) => {
    const started = await rows<{ at: string }>(tx, sql`SELECT clock_timestamp()::text AS at`);
    const unplaced = await emptyOrRefuse(tx, locationId);
    const catalog = await catalogOf(tx, [...REGISTRIES, ...LOCATION_TABLES]);
    const ids = new Map<string, string>([[manifest.locationIds[0]!, locationId]]);
    // Rows of the zip that stand for a row the target already has (its Unplaced area, its built-in types).
    const existing = new Set<string>();
    const sourceUnplaced = parsed.get("places")!.find((p) => p.is_unplaced === true);
    if (sourceUnplaced) {
      ids.set(sourceUnplaced.id, unplaced);
      existing.add(sourceUnplaced.id);
    }
    if (crossAccount)
      for (const [from, to] of await matchRegistries(tx, accountId, parsed)) {
        ids.set(from, to);
        existing.add(from);
      }
    for (const t of order) for (const r of parsed.get(t)!) if (!ids.has(r.id)) ids.set(r.id, uuidv7());

    const written = new Set(order);
    const owner = (t: string): Owner => (REGISTRIES.includes(t) ? { column: "account_id", id: accountId } : { column: "location_id", id: locationId });
    const scope: Scope = { locationId, accountId, ownerOf: owner };
    const plan = planTables(catalog, order, parsed, existing, absent, owner);

    const records: Record<string, number> = {};
    for (const t of order) {
      const p = plan.get(t)!;
      // A thing whose place and box were both left out of the export goes to Unplaced.
      const fallback = t === "things" ? { column: "place_id", when: ["container_id"], value: unplaced } : undefined;
      records[t] = 0;
      await writing(`records/${t}.json`, async () => {
        for (const level of p.levels)
          for (const b of batches(texts.get(t)!, level, ids))
            records[t]! += await insertRows(tx, scope, t, catalog.columns.get(t)!, b.json, p.refs, b.only, fallback);
        if (t === "places" && sourceUnplaced) {
          const [b] = [...batches(texts.get(t)!, [sourceUnplaced.id], ids)];
          await overwriteRow(tx, "places", catalog.columns.get("places")!, b!.json, unplaced, ["location_id", "short_code", "is_unplaced", "parent_id"]);
        }
      });
    }
    for (const t of order)
      await writing(`records/${t}.json`, async () => {
        for (const b of batches(texts.get(t)!, plan.get(t)!.levels.flat(), ids)) await fillDeferred(tx, scope, t, b.json, plan.get(t)!.refs);
      });
    await writing("records/", () => settleReferences(tx, catalog, order, written, scope, new Set(REGISTRIES)));
    const secrets = zip.records.get("secret_values");
    if (secrets)
      records.secret_values = await restoreSecrets(
        tx,
        scope,
        secrets.map((r) => r.row as unknown as ExportedSecret),
        ids,
        crossAccount,
      );

    // A restore is not new activity: no push for restored inbox items, no webhook event for old history.
    await tx.execute(sql`DELETE FROM push_pending WHERE location_id = ${locationId} AND created_at >= ${started[0]!.at}::timestamptz`);
    await tx.execute(sql`DELETE FROM webhook_deliveries WHERE location_id = ${locationId} AND created_at >= ${started[0]!.at}::timestamptz`);

    const skipped = Object.fromEntries([...plan].filter(([, p]) => p.dropped).map(([t, p]) => [t, p.dropped]));
    return { places: records.places ?? 0, things: records.things ?? 0, photos, records, skipped, ids: Object.fromEntries(ids) };
  });
}
