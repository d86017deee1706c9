/**
 * Reads of export rows (the table is closed to app_role: these run with the service's authority,
 * on its transaction, always narrowed to the person who asked), and the record the API answers.
 */
import type { ExportRecord } from "../../../shared/exports.js";
import { rows, sql, type Tx } from "../../db/client.js";

export interface ExportRow {
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

export function recordOf(r: ExportRow): ExportRecord {
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

/** The columns an ExportRow holds. */
export const EXPORT_COLUMNS = sql`id::text AS id, scope, location_id::text AS location_id, status, progress_done, progress_total, bytes, sha256, includes_secrets,
  options, created_at, finished_at, expires_at, error`;

/** The account a location belongs to, and who owns that account; null when there is no such location. */
export async function locationAccount(tx: Tx, locationId: string): Promise<{ accountId: string; ownerId: string } | null> {
  const [loc] = await rows<{ account_id: string; owner: string }>(
    tx,
    sql`SELECT l.account_id::text AS account_id, a.owner_user_id::text AS owner FROM locations l JOIN accounts a ON a.id = l.account_id WHERE l.id = ${locationId}`,
  );
  return loc ? { accountId: loc.account_id, ownerId: loc.owner } : null;
}

/** The account the person owns, or null. */
export async function ownAccount(tx: Tx, userId: string): Promise<string | null> {
  const [own] = await rows<{ id: string }>(tx, sql`SELECT id::text AS id FROM accounts WHERE owner_user_id = ${userId}`);
  return own?.id ?? null;
}

/** One of the person's exports; null when it is not theirs or does not exist. */
export async function ownExport(tx: Tx, userId: string, id: string): Promise<ExportRow | null> {
  const [row] = await rows<ExportRow>(tx, sql`SELECT ${EXPORT_COLUMNS} FROM exports WHERE id = ${id} AND requested_by = ${userId}`);
  return row ?? null;
}

/** The person's latest 50 exports, newest first. */
export function ownExports(tx: Tx, userId: string): Promise<ExportRow[]> {
  return rows<ExportRow>(tx, sql`SELECT ${EXPORT_COLUMNS} FROM exports WHERE requested_by = ${userId} ORDER BY created_at DESC, id DESC LIMIT 50`);
}
