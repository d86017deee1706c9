/**
 * Requesting and reading inventory reports. Any reader of the location (viewers too) may ask for a
 * report; a report is its requester's alone (it holds what they may see: money by role), so others,
 * admins included, get 404 for it, as for a report that does not exist.
 */
import { v7 as uuidv7 } from "uuid";
import { REPORT_TTL_MS, reportFilePath, type ReportJob, type ReportParams, type ReportRequest, type ReportState } from "../../../shared/reports.js";
import { type Actor, withActor } from "../../db/actor.js";
import { type Tx, rows, sql, uuidArray } from "../../db/client.js";
import { locationAccess } from "../../access/location.js";
import { ConflictError, GoneError, NotFoundError } from "../../errors/classes.js";
import type { ServiceDeps } from "../deps.js";

/** Ids the filters name must be the location's (or its account's registries'): another's is 404, as if absent. */
async function checkFilterIds(tx: Tx, locationId: string, f: ReportParams["filters"]): Promise<void> {
  const account = sql`(SELECT account_id FROM locations WHERE id = ${locationId})`;
  const lists: [string, string[] | undefined, ReturnType<typeof sql>][] = [
    ["place", f.placeIds, sql`SELECT count(*)::int AS n FROM places WHERE location_id = ${locationId} AND id = ANY(${uuidArray(f.placeIds ?? [])})`],
    ["thing", f.thingIds, sql`SELECT count(*)::int AS n FROM things WHERE location_id = ${locationId} AND id = ANY(${uuidArray(f.thingIds ?? [])})`],
    ["type", f.typeIds, sql`SELECT count(*)::int AS n FROM types WHERE account_id = ${account} AND id = ANY(${uuidArray(f.typeIds ?? [])})`],
    ["tag", f.tagIds, sql`SELECT count(*)::int AS n FROM tags WHERE account_id = ${account} AND id = ANY(${uuidArray(f.tagIds ?? [])})`],
  ];
  for (const [what, ids, query] of lists) {
    if (!ids?.length) continue;
    const [row] = await rows<{ n: number }>(tx, query);
    if ((row?.n ?? 0) !== new Set(ids.map((x) => x.toLowerCase())).size) throw new NotFoundError(what);
  }
}

export async function requestReport(deps: ServiceDeps, actor: Actor, body: ReportRequest, now = new Date()): Promise<ReportJob> {
  const locationId = body.scope.locationId;
  const params: ReportParams = {
    filters: body.filters ?? {},
    include: { photos: !!body.include?.photos, qr: !!body.include?.qr, money: !!body.include?.money },
    locale: body.locale ?? "en",
    digits: body.digits ?? "western",
    email: !!body.email,
  };
  const id = uuidv7();
  const expiresAt = new Date(now.getTime() + REPORT_TTL_MS);
  await withActor(deps.db, actor, async (tx) => {
    await locationAccess(tx, locationId);
    await checkFilterIds(tx, locationId, params.filters);
    await tx.execute(
      sql`INSERT INTO report_jobs (id, location_id, requested_by, params, status, created_at, expires_at)
          VALUES (${id}, ${locationId}, ${actor.userId}, ${JSON.stringify(params)}::jsonb, 'queued', ${now.toISOString()}::timestamptz, ${expiresAt.toISOString()}::timestamptz)`,
    );
  });
  return { id, status: "queued", expiresAt: expiresAt.toISOString() };
}

interface JobRow {
  id: string;
  location_id: string;
  status: ReportState["status"];
  created_at: Date | string;
  finished_at: Date | string | null;
  expires_at: Date | string;
  error: string | null;
  bytes: number | null;
  has_file: boolean;
}

const iso = (d: Date | string) => new Date(d).toISOString();

async function findJob(tx: Tx, id: string): Promise<JobRow> {
  // RLS shows only the caller's own reports in locations they still read.
  const [row] = await rows<JobRow>(
    tx,
    sql`SELECT id::text AS id, location_id::text AS location_id, status, created_at, finished_at, expires_at, error, bytes, (file IS NOT NULL) AS has_file
        FROM report_jobs WHERE id = ${id}`,
  );
  if (!row) throw new NotFoundError("report");
  return row;
}

export async function getReport(deps: ServiceDeps, actor: Actor, id: string): Promise<ReportState> {
  const row = await withActor(deps.db, actor, (tx) => findJob(tx, id));
  return {
    id: row.id,
    locationId: row.location_id,
    status: row.status,
    createdAt: iso(row.created_at),
    ...(row.finished_at ? { finishedAt: iso(row.finished_at) } : {}),
    expiresAt: iso(row.expires_at),
    ...(row.error ? { error: row.error } : {}),
    ...(row.bytes !== null && row.has_file ? { bytes: row.bytes } : {}),
    ...(row.has_file ? { fileUrl: reportFilePath(row.id) } : {}),
  };
}

/** The PDF: 409 while it is being made, 410 once expired (or failed). */
export async function reportFile(deps: ServiceDeps, actor: Actor, id: string): Promise<Buffer> {
  return withActor(deps.db, actor, async (tx) => {
    const row = await findJob(tx, id);
    if (row.status === "queued" || row.status === "running") throw new ConflictError("The report is not ready yet.");
    if (!row.has_file) throw new GoneError("report");
    const [f] = await rows<{ file: Uint8Array }>(tx, sql`SELECT file FROM report_jobs WHERE id = ${id}`);
    return Buffer.from(f!.file);
  });
}
