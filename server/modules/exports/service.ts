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
import type { Db } from "../../db/client.js";
import { locationAccess } from "../../access/location.js";
import { AppError, ConflictError, ForbiddenError, NotFoundError, RateLimitedError } from "../../errors/classes.js";
import { exportPath, removeExportFiles } from "./build.js";
import { cancelActive, insertExport, lockedActiveCount } from "./queue.js";
import { locationAccount, ownAccount, ownExport, ownExports, recordOf, type ExportRow } from "./read.js";
import { requirePerson, requireRole } from "../../access/role.js";

export interface ExportDeps extends ReauthDeps {
  db: Db;
  dir: string;
}

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
    const loc = await asSystem(db, (tx) => locationAccount(tx, locationId));
    if (!loc) throw new NotFoundError("location");
    accountId = loc.accountId;
    ownsAccount = loc.ownerId === actor.userId;
  } else {
    const own = await asSystem(db, (tx) => ownAccount(tx, actor.userId));
    if (!own) throw new ForbiddenError("Only the account's owner can export the whole account.");
    accountId = own;
    ownsAccount = true;
  }
  if (body.includesSecrets) {
    if (!ownsAccount) throw new ForbiddenError("Only the account's owner can export secret values.");
    await requireFreshAuth(deps, actor);
  }
  const id = uuidv7();
  return asSystem(db, async (tx) => {
    // Serialises one person's creates, so two at once cannot both pass the limit.
    if ((await lockedActiveCount(tx, actor.userId)) >= EXPORT_MAX_ACTIVE) throw new RateLimitedError(60);
    const options = { ...body.options, locale: body.locale, digits: body.digits };
    const row = await insertExport(tx, {
      id,
      accountId,
      locationId: body.scope === "location" ? body.locationId : null,
      scope: body.scope,
      requestedBy: actor.userId,
      options,
      includesSecrets: body.includesSecrets,
    });
    return recordOf(row);
  });
}

async function mine(db: Db, actor: Actor, id: string): Promise<ExportRow> {
  person(actor);
  const row = await asSystem(db, (tx) => ownExport(tx, actor.userId, id));
  if (!row) throw new NotFoundError("export");
  return row;
}

export const getExport = async (db: Db, actor: Actor, id: string) => recordOf(await mine(db, actor, id));

export async function listExports(db: Db, actor: Actor): Promise<{ items: ExportRecord[] }> {
  person(actor);
  const found = await asSystem(db, (tx) => ownExports(tx, actor.userId));
  return { items: found.map(recordOf) };
}

/** Stops a queued or running export and deletes what it wrote; a running build notices at its next page. */
export async function cancelExport(deps: ExportDeps, actor: Actor, id: string): Promise<ExportRecord> {
  const row = await mine(deps.db, actor, id);
  if (row.status === "cancelled") return recordOf(row);
  if (row.status !== "queued" && row.status !== "running")
    throw new ConflictError(`This export already ended (${row.status}); only a queued or running one can be cancelled.`);
  const done = await asSystem(deps.db, (tx) => cancelActive(tx, id));
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
