/**
 * Exports as the API offers them: create (role and re-authentication checks), read, list, cancel,
 * download. The rows are read and written with the service's authority after these checks (the
 * table is closed to app_role), always narrowed to the person who asked for the export.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import type { Response } from "express";
import { v7 as uuidv7 } from "uuid";
import { EXPORT_MAX_ACTIVE, type ExportCreate, type ExportRecord } from "../../../shared/exports.js";
import { type Actor, asSystem, withActor } from "../../db/actor.js";
import { requireFreshAuth, type ReauthDeps } from "../../auth/reauth.js";
import { rows, sql, type Db } from "../../db/client.js";
import { locationAccess } from "../../access/location.js";
import { AppError, ConflictError, ForbiddenError, NotFoundError, RateLimitedError } from "../../errors/classes.js";
import { exportPath, removeExportFiles } from "./build.js";
import { requirePerson, requireRole } from "../../access/role.js";

export interface ExportDeps extends ReauthDeps {
  db: Db;
  dir: string;
}

interface Row {
  id: string;
  scope: "location" | "account";
  location_id: string | null;
  status: ExportRecord["status"];
  progress_done: number;
  progress_total: number;
  bytes: string | number | null;
  sha256: string | null;
  includes_secrets: boolean;
  options: ExportRecord["options"];
  created_at: string | Date;
  finished_at: string | Date | null;
  expires_at: string | Date | null;
  error: string | null;
}

const iso = (d: string | Date) => new Date(d).toISOString();

export function recordOf(r: Row): ExportRecord {
  return {
    id: r.id,
    scope: r.scope,
    ...(r.location_id ? { locationId: r.location_id } : {}),
    status: r.status,
    progress: { done: r.progress_done, total: r.progress_total },
    ...(r.bytes !== null ? { bytes: Number(r.bytes) } : {}),
    ...(r.sha256 ? { sha256: r.sha256 } : {}),
    includesSecrets: r.includes_secrets,
    options: r.options,
    createdAt: iso(r.created_at),
    ...(r.finished_at ? { finishedAt: iso(r.finished_at) } : {}),
    ...(r.expires_at ? { expiresAt: iso(r.expires_at) } : {}),
    ...(r.error ? { error: r.error } : {}),
    ...(r.status === "succeeded" ? { fileUrl: `/api/v1/exports/${r.id}/file` } : {}),
  };
}

const COLUMNS = sql`id::text AS id, scope, location_id::text AS location_id, status, progress_done, progress_total, bytes, sha256, includes_secrets,
  options, created_at, finished_at, expires_at, error`;

/** Only a signed-in person exports: a token or an MCP grant never does (spec "Personal tokens" 5). */
function person(actor: Actor): void {
  requirePerson(actor, "Exports are made by a signed-in person, never by a token.");
}

export async function createExport(deps: ExportDeps, actor: Actor, body: ExportCreate): Promise<ExportRecord> {
  person(actor);
  const { db } = deps;
  let accountId: string;
  let ownsAccount: boolean;
  if (body.scope === "location") {
    const { locationId } = body;
    // Owners and admins export a location: the zip holds every record, money and members' history included.
    const access = await withActor(db, actor, (tx) => locationAccess(tx, locationId));
    requireRole(access.role, "admin", "Only the location's owners and admins can export it.");
    const [loc] = await asSystem(db, (tx) =>
      rows<{ account_id: string; owner: string }>(
        tx,
        sql`SELECT l.account_id::text AS account_id, a.owner_user_id::text AS owner FROM locations l JOIN accounts a ON a.id = l.account_id WHERE l.id = ${locationId}`,
      ),
    );
    if (!loc) throw new NotFoundError("location");
    accountId = loc.account_id;
    ownsAccount = loc.owner === actor.userId;
  } else {
    const [own] = await asSystem(db, (tx) => rows<{ id: string }>(tx, sql`SELECT id::text AS id FROM accounts WHERE owner_user_id = ${actor.userId}`));
    if (!own) throw new ForbiddenError("Only the account's owner can export the whole account.");
    accountId = own.id;
    ownsAccount = true;
  }
  if (body.includesSecrets) {
    if (!ownsAccount) throw new ForbiddenError("Only the account's owner can export secret values.");
    await requireFreshAuth(deps, actor);
  }
  const id = uuidv7();
  return asSystem(db, async (tx) => {
    // Serialises one person's creates, so two at once cannot both pass the limit.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`export:${actor.userId}`}))`);
    const [active] = await rows<{ n: number }>(
      tx,
      sql`SELECT count(*)::int AS n FROM exports WHERE requested_by = ${actor.userId} AND status IN ('queued', 'running')`,
    );
    if ((active?.n ?? 0) >= EXPORT_MAX_ACTIVE) throw new RateLimitedError(60);
    const options = { ...body.options, locale: body.locale, digits: body.digits };
    const [row] = await rows<Row>(
      tx,
      sql`INSERT INTO exports (id, account_id, location_id, scope, requested_by, options, includes_secrets)
          VALUES (${id}, ${accountId}, ${body.scope === "location" ? body.locationId : null}, ${body.scope}, ${actor.userId}, ${JSON.stringify(options)}::jsonb, ${body.includesSecrets})
          RETURNING ${COLUMNS}`,
    );
    return recordOf(row!);
  });
}

async function mine(db: Db, actor: Actor, id: string): Promise<Row> {
  person(actor);
  const [row] = await asSystem(db, (tx) => rows<Row>(tx, sql`SELECT ${COLUMNS} FROM exports WHERE id = ${id} AND requested_by = ${actor.userId}`));
  if (!row) throw new NotFoundError("export");
  return row;
}

export const getExport = async (db: Db, actor: Actor, id: string) => recordOf(await mine(db, actor, id));

export async function listExports(db: Db, actor: Actor): Promise<{ items: ExportRecord[] }> {
  person(actor);
  const found = await asSystem(db, (tx) =>
    rows<Row>(tx, sql`SELECT ${COLUMNS} FROM exports WHERE requested_by = ${actor.userId} ORDER BY created_at DESC, id DESC LIMIT 50`),
  );
  return { items: found.map(recordOf) };
}

/** Stops a queued or running export and deletes what it wrote; a running build notices at its next page. */
export async function cancelExport(deps: ExportDeps, actor: Actor, id: string): Promise<ExportRecord> {
  const row = await mine(deps.db, actor, id);
  if (row.status === "cancelled") return recordOf(row);
  if (row.status !== "queued" && row.status !== "running")
    throw new ConflictError(`This export already ended (${row.status}); only a queued or running one can be cancelled.`);
  const [done] = await asSystem(deps.db, (tx) =>
    rows<Row>(
      tx,
      sql`UPDATE exports SET status = 'cancelled', lease_until = NULL, finished_at = now(), updated_at = now()
          WHERE id = ${id} AND status IN ('queued', 'running') RETURNING ${COLUMNS}`,
    ),
  );
  if (!done) return getExport(deps.db, actor, id); // it finished meanwhile
  await removeExportFiles(deps.dir, id);
  return recordOf(done);
}

/** Streams the finished zip, with its length and hash, as an attachment. */
export async function sendExportFile(deps: ExportDeps, actor: Actor, id: string, res: Response): Promise<undefined> {
  const row = await mine(deps.db, actor, id);
  if (row.status === "expired") throw new AppError(410, "gone", "This export expired and its file was deleted; make a new one.");
  if (row.status !== "succeeded") throw new ConflictError(`This export has no file (${row.status}).`);
  const file = exportPath(deps.dir, id);
  const size = await stat(file).then(
    (s) => s.size,
    () => null,
  );
  if (size === null) throw new NotFoundError("export file");
  res.setHeader("content-type", "application/zip");
  res.setHeader("content-length", String(size));
  res.setHeader("content-disposition", `attachment; filename="inventory-export-${id}.zip"`);
  res.setHeader("cache-control", "private, no-store");
  if (row.sha256) res.setHeader("x-content-sha256", row.sha256);
  await pipeline(createReadStream(file), res);
  return undefined;
}
