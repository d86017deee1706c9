/**
 * Reads of report jobs and of the rows a report's filters name, on the actor's transaction (RLS
 * shows only the caller's own reports, in locations they still read).
 */
import type { ReportParams, ReportState } from "../../../shared/reports.js";
import { reportFilePath } from "../../../shared/reports.js";
import { type Tx, rows, sql, uuidArray } from "../../db/client.js";
import { NotFoundError } from "../../errors/classes.js";

/**
 * The first kind of filter (place, thing, type, tag) naming an id that is not the location's (or its
 * account's registries'), or null when every id is; ids the actor cannot read count as not the location's.
 */
export async function foreignFilterKind(tx: Tx, locationId: string, f: ReportParams["filters"]): Promise<string | null> {
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
    if ((row?.n ?? 0) !== new Set(ids.map((x) => x.toLowerCase())).size) return what;
  }
  return null;
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

/** A report job as its requester sees it; 404 for anyone else's, as for one that does not exist. */
export async function findReport(tx: Tx, id: string): Promise<ReportState & { hasFile: boolean }> {
  const [row] = await rows<JobRow>(
    tx,
    sql`SELECT id::text AS id, location_id::text AS location_id, status, created_at, finished_at, expires_at, error, bytes, (file IS NOT NULL) AS has_file
        FROM report_jobs WHERE id = ${id}`,
  );
  if (!row) throw new NotFoundError("report");
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
    hasFile: row.has_file,
  };
}

/** A report's PDF (the caller has found the report and seen it has one). */
export async function reportPdf(tx: Tx, id: string): Promise<Buffer> {
  const [f] = await rows<{ file: Uint8Array }>(tx, sql`SELECT file FROM report_jobs WHERE id = ${id}`);
  return Buffer.from(f!.file);
}
