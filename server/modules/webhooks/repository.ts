/**
 * The SQL of webhooks and their delivery log, on an open transaction. No access checks here:
 * service.ts makes them (and RLS, migrations/0030, shows the rows to the location's admins only).
 */
import { z } from "zod";
import type { PageQuery } from "../../../shared/paging.js";
import type { Delivery, Webhook } from "../../../shared/webhooks.js";
import { rows, sql, type Tx } from "../../db/client.js";
import { decodeCursor, encodeCursor, pageFrom } from "../../db/paging.js";
import { NotFoundError } from "../../errors/classes.js";

export interface WebhookRow {
  id: string;
  location_id: string;
  url: string;
  events: string[];
  active: boolean;
  disabled_reason: string | null;
  consecutive_failures: number;
  row_version: number;
  created_at: string;
  updated_at: string;
}

type Page<T> = { items: T[]; next_cursor: string | null };

const iso = (col: string) => sql.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
const cursorKey = z.tuple([z.iso.datetime(), z.uuid()]);

const COLUMNS = sql`id::text, location_id::text, url, events, active, disabled_reason, consecutive_failures, row_version,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

const eventsArray = (events: readonly string[]) => sql`${`{${events.join(",")}}`}::text[]`;

export const toWebhook = (r: WebhookRow): Webhook => ({
  id: r.id,
  locationId: r.location_id,
  url: r.url,
  events: r.events as Webhook["events"],
  active: r.active,
  disabledReason: r.disabled_reason,
  consecutiveFailures: r.consecutive_failures,
  rowVersion: r.row_version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The webhook as its admin sees it; 404 when absent or not theirs (RLS hides it). */
export async function findWebhook(tx: Tx, id: string): Promise<WebhookRow> {
  const [row] = await rows<WebhookRow>(tx, sql`SELECT ${COLUMNS} FROM webhooks WHERE id = ${id}`);
  if (!row) throw new NotFoundError("webhook");
  return row;
}

/**
 * How many webhooks the location has, after taking its create lock: the lock serializes creates
 * per location until the transaction ends, so two at once cannot both pass the count.
 */
export async function lockedWebhookCount(tx: Tx, locationId: string): Promise<number> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('webhooks:' || ${locationId}))`);
  const [count] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM webhooks WHERE location_id = ${locationId}`);
  return count?.n ?? 0;
}

/** The account a location belongs to (its signing secrets are sealed for it). */
export async function accountOfLocation(tx: Tx, locationId: string): Promise<string> {
  const [loc] = await rows<{ account_id: string }>(tx, sql`SELECT account_id::text FROM locations WHERE id = ${locationId}`);
  if (!loc) throw new NotFoundError("location");
  return loc.account_id;
}

export async function insertWebhook(
  tx: Tx,
  w: { id: string; locationId: string; url: string; events: readonly string[]; active: boolean; secretSealed: string; createdBy: string },
): Promise<WebhookRow> {
  const [row] = await rows<WebhookRow>(
    tx,
    sql`INSERT INTO webhooks (id, location_id, url, events, active, secret_sealed, created_by)
        VALUES (${w.id}, ${w.locationId}, ${w.url}, ${eventsArray(w.events)}, ${w.active}, ${w.secretSealed}, ${w.createdBy})
        RETURNING ${COLUMNS}`,
  );
  return row!;
}

/** A location's webhooks, oldest first, a page at a time (spec convention 6). */
export async function webhooksPage(tx: Tx, locationId: string, query: PageQuery): Promise<Page<Webhook>> {
  const after = query.cursor ? decodeCursor(query.cursor, cursorKey) : null;
  // The cursor keeps created_at to the microsecond: webhooks made in one millisecond are neither skipped nor repeated.
  const list = await rows<WebhookRow & { created_key: string }>(
    tx,
    sql`SELECT ${COLUMNS}, ${iso("created_at")} AS created_key FROM webhooks WHERE location_id = ${locationId}
          ${after ? sql`AND (created_at, id) > (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql``}
        ORDER BY created_at, id LIMIT ${query.limit + 1}`,
  );
  const page = pageFrom(list, query.limit, (r) => [r.created_key, r.id]);
  return { items: page.rows.map(toWebhook), next_cursor: page.next_cursor };
}

/** Writes a webhook's settings whole and bumps its row version. */
export async function updateWebhookRow(
  tx: Tx,
  id: string,
  next: { url: string; events: readonly string[]; active: boolean; disabledReason: string | null; consecutiveFailures: number },
): Promise<WebhookRow> {
  const [row] = await rows<WebhookRow>(
    tx,
    sql`UPDATE webhooks SET
          url = ${next.url},
          events = ${eventsArray(next.events)},
          active = ${next.active},
          disabled_reason = ${next.disabledReason},
          consecutive_failures = ${next.consecutiveFailures},
          row_version = row_version + 1, updated_at = now()
        WHERE id = ${id} RETURNING ${COLUMNS}`,
  );
  return row!;
}

export async function deleteWebhookRow(tx: Tx, id: string): Promise<void> {
  await tx.execute(sql`DELETE FROM webhooks WHERE id = ${id}`);
}

interface DeliveryRow {
  id: string;
  event_type: string;
  status: Delivery["status"];
  attempt: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
  log: Delivery["attempts"];
}

/** The delivery log of a webhook, newest first (paged). */
export async function deliveriesPage(tx: Tx, webhookId: string, query: PageQuery): Promise<Page<Delivery>> {
  const after = query.cursor ? decodeCursor(query.cursor, cursorKey) : null;
  const list = await rows<DeliveryRow>(
    tx,
    sql`SELECT id::text, event_type, status, attempt, last_status_code, last_error, log,
          ${iso("last_attempt_at")} AS last_attempt_at,
          CASE WHEN status IN ('pending', 'delivering') THEN ${iso("next_attempt_at")} END AS next_attempt_at,
          ${iso("created_at")} AS created_at
        FROM webhook_deliveries WHERE webhook_id = ${webhookId}
          ${after ? sql`AND (created_at, id) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql``}
        ORDER BY created_at DESC, id DESC LIMIT ${query.limit + 1}`,
  );
  const page = list.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((d) => ({
      id: d.id,
      eventType: d.event_type as Delivery["eventType"],
      status: d.status,
      attempt: d.attempt,
      lastStatusCode: d.last_status_code,
      lastError: d.last_error,
      lastAttemptAt: d.last_attempt_at,
      nextAttemptAt: d.next_attempt_at,
      createdAt: d.created_at,
      attempts: d.log,
    })),
    next_cursor: list.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null,
  };
}
