/**
 * Restoring an export's zip into an empty location of the same account
 * (POST /api/v1/locations/:id/imports): places, things with their fields, and photos, with new ids.
 * Places and things are written through the normal write path (place.create, thing.create, file
 * upload) in parent-before-child order; a thing's cover photo is set as capture sets it. What a
 * one-location export holds beyond places, things and photos (meters, loans, moves, history) is
 * not restored.
 */
import { v7 as uuidv7 } from "uuid";
import yauzl from "yauzl";
import { roleAtLeast } from "../../../shared/roles.js";
import type { Actor } from "../../auth/actor.js";
import { rows, sql } from "../../db/client.js";
import { asSystem, withActor } from "../../db/actor.js";
import { locationAccess } from "../../access/location.js";
import { ConflictError, ForbiddenError, ValidationError } from "../../errors/classes.js";
import type { FileDeps } from "../files/service.js";
import { uploadFile } from "../files/service.js";
import { createPlace } from "../places/service.js";
import { createThing } from "../things/service.js";

type Row = Record<string, unknown>;
type Fields = Record<string, unknown>;
interface PlaceRow {
  id: string;
  parent_id: string | null;
  kind_id: string | null;
  name: string;
  is_unplaced: boolean;
  fields: Fields;
  deleted_at: string | null;
}
interface ThingRow {
  id: string;
  place_id: string | null;
  container_id: string | null;
  type_id: string;
  name: string | null;
  description: string | null;
  quantity: string | number;
  lifecycle: "draft" | "active" | "in_repair" | "ended";
  condition: "new" | "good" | "fair" | "poor" | "broken" | null;
  brand_id: string | null;
  model: string | null;
  colour: string | null;
  serial: string | null;
  is_container: boolean;
  fields: Fields;
  tag_ids: string[];
  cover_file_id: string | null;
  deleted_at: string | null;
}

export interface ZipImportResult {
  places: number;
  things: number;
  photos: number;
  /** Old id -> new id of every place and thing, so a caller can follow its records across. */
  ids: Record<string, string>;
}

/** Reads the entries the restore needs (records and photos) from a zip file on disk. */
function readZip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(new ValidationError("This is not a zip file."));
      const out = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) => {
        const wanted =
          entry.fileName === "manifest.json" || /^records\/(places|things|files)\.json$/.test(entry.fileName) || entry.fileName.startsWith("files/");
        if (!wanted) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(new ValidationError("The zip could not be read."));
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("error", () => reject(new ValidationError("The zip could not be read.")));
          stream.on("end", () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(out));
      zip.on("error", () => reject(new ValidationError("The zip could not be read.")));
      zip.readEntry();
    });
  });
}

/** Parents before children: each row after the row its `key` names (when that row is in the list). */
function parentsFirst<T extends { id: string }>(list: T[], parentOf: (r: T) => string | null): T[] {
  const byId = new Map(list.map((r) => [r.id, r]));
  const out: T[] = [];
  const seen = new Set<string>();
  const visit = (r: T, depth: number) => {
    if (seen.has(r.id) || depth > 1000) return;
    const p = parentOf(r);
    const parent = p ? byId.get(p) : undefined;
    if (parent) visit(parent, depth + 1);
    seen.add(r.id);
    out.push(r);
  };
  for (const r of list) visit(r, 0);
  return out;
}

export async function importZip(deps: FileDeps, actor: Actor, locationId: string, file: string): Promise<ZipImportResult> {
  const { accountId } = await withActor(deps.db, actor, async (tx) => {
    const access = await locationAccess(tx, locationId);
    if (!actor.canWrite || !roleAtLeast(access.role, "admin")) throw new ForbiddenError("Only the location's owners and admins can restore an export into it.");
    const [l] = await rows<{ account_id: string }>(tx, sql`SELECT account_id::text AS account_id FROM locations WHERE id = ${locationId}`);
    return { accountId: l!.account_id };
  });
  const entries = await readZip(file);
  const json = <T = Row>(name: string): T[] => {
    const b = entries.get(name);
    if (!b) throw new ValidationError(`The zip has no ${name}; is it an export of this service?`);
    try {
      return JSON.parse(b.toString("utf8")) as T[];
    } catch {
      throw new ValidationError(`${name} in the zip is not JSON.`);
    }
  };
  const manifest = json("manifest.json") as unknown as Row;
  if (manifest.version !== 1) throw new ValidationError("This export's format version is not one this server reads.");
  if (manifest.accountId !== accountId) throw new ConflictError("This export is of another account; restore it into a location of the account it came from.");
  if (!Array.isArray(manifest.locationIds) || manifest.locationIds.length !== 1) throw new ValidationError("Only an export of one location can be restored.");
  const places = json<PlaceRow>("records/places.json");
  const things = json<ThingRow>("records/things.json");
  const files = new Map(json<{ id: string }>("records/files.json").map((f) => [f.id, f]));

  const [busy] = await asSystem(deps.db, (tx) =>
    rows<{ n: number }>(
      tx,
      sql`SELECT (SELECT count(*) FROM things WHERE location_id = ${locationId} AND deleted_at IS NULL)
               + (SELECT count(*) FROM places WHERE location_id = ${locationId} AND deleted_at IS NULL AND NOT is_unplaced) AS n`,
    ),
  );
  if (Number(busy!.n) > 0) throw new ConflictError("An export is restored only into an empty location: this one already has places or things.");

  const [unplaced] = await asSystem(deps.db, (tx) =>
    rows<{ id: string }>(tx, sql`SELECT id::text AS id FROM places WHERE location_id = ${locationId} AND is_unplaced`),
  );
  const ids: Record<string, string> = {};
  let placeCount = 0;
  for (const p of parentsFirst(places, (p) => p.parent_id)) {
    if (p.deleted_at) continue;
    if (p.is_unplaced) {
      ids[p.id] = unplaced!.id;
      continue;
    }
    const id = uuidv7();
    await createPlace(deps, actor, locationId, {
      id,
      name: p.name,
      parentId: p.parent_id ? (ids[p.parent_id] ?? null) : null,
      kindId: p.kind_id,
      fields: p.fields,
    });
    ids[p.id] = id;
    placeCount += 1;
  }
  let thingCount = 0;
  let photos = 0;
  for (const t of parentsFirst(things, (t) => t.container_id)) {
    if (t.deleted_at) continue;
    const id = uuidv7();
    const parent =
      t.container_id && ids[t.container_id] ? { containerId: ids[t.container_id] } : t.place_id && ids[t.place_id] ? { placeId: ids[t.place_id] } : {};
    await createThing(deps, actor, locationId, {
      id,
      name: t.name,
      description: t.description,
      typeId: t.type_id,
      quantity: String(t.quantity),
      lifecycle: t.lifecycle,
      condition: t.condition,
      brandId: t.brand_id,
      model: t.model,
      colour: t.colour,
      serial: t.serial,
      isContainer: t.is_container,
      fields: t.fields,
      tagIds: t.tag_ids,
      ...parent,
    });
    ids[t.id] = id;
    thingCount += 1;
    const cover = t.cover_file_id ? files.get(t.cover_file_id) : undefined;
    const bytes = cover ? [...entries.entries()].find(([name]) => name.startsWith(`files/${cover.id}.`))?.[1] : undefined;
    if (cover && bytes) {
      const made = await uploadFile(deps, actor, locationId, undefined, bytes);
      ids[cover.id] = made.result.id;
      await asSystem(deps.db, (tx) => tx.execute(sql`UPDATE things SET cover_file_id = ${made.result.id} WHERE id = ${id}`));
      photos += 1;
    }
  }
  return { places: placeCount, things: thingCount, photos, ids };
}
