/**
 * Webhooks for routes: an admin's (owner or admin) settings of a location, written here outside
 * the command path on purpose: a webhook is no synced row and has no history, like an invite. Only
 * a signed-in person reaches this (tokens are refused by the allow-list before any route; an MCP
 * grant is refused here), and RLS (migrations/0030) lets only the location's admins see the rows.
 */
import { v7 as uuidv7 } from "uuid";
import type { PageQuery } from "../../../shared/paging.js";
import {
  MAX_WEBHOOKS_PER_LOCATION,
  type Delivery,
  type Webhook,
  type WebhookCreateBody,
  type WebhookCreated,
  type WebhookPatchBody,
} from "../../../shared/webhooks.js";
import { locationAccess } from "../../access/location.js";
import { recordAudit } from "../../commands/audit.js";
import { type Actor, withActor } from "../../db/actor.js";
import { rows, sql, type Db, type Tx } from "../../db/client.js";
import { ConflictError, ForbiddenError, NotFoundError, VersionConflictError } from "../../errors/classes.js";
import type { GuardOptions } from "../../oauth/guarded-fetch.js";
import { decodeCursor, encodeCursor, pageFrom } from "../../db/paging.js";
import { z } from "zod";
import { newSigningSecret, sealSigningSecret } from "./secret.js";
import { checkWebhookUrl } from "./url.js";
import { requirePerson, requireRole } from "../../access/role.js";

export interface WebhookDeps {
  db: Db;
  guard: GuardOptions;
}

interface Row {
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

const iso = (col: string) => sql.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
const cursorKey = z.tuple([z.iso.datetime(), z.uuid()]);

const COLUMNS = sql`id::text, location_id::text, url, events, active, disabled_reason, consecutive_failures, row_version,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

const toWebhook = (r: Row): Webhook => ({
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

/** An audit entry names the receiver by its host only: the URL's path or query may carry a credential. */
const hostOf = (url: string): string => new URL(url).host;

function personOnly(actor: Actor): Actor {
  return requirePerson(actor, "Webhooks are managed from a signed-in session only.");
}

/** 404 for a location the actor cannot see; 403 for members and viewers; writes need a writable location too. */
async function requireAdmin(tx: Tx, actor: Actor, locationId: string): Promise<void> {
  const { role } = await locationAccess(tx, locationId);
  requireRole(role, "admin", "Only owners and admins manage webhooks.");
  if (!actor.canWrite) throw new ForbiddenError("This session may only read.");
}

/** The webhook as its admin sees it; 404 when absent or not theirs (RLS hides it). */
async function findWebhook(tx: Tx, id: string): Promise<Row> {
  const [row] = await rows<Row>(tx, sql`SELECT ${COLUMNS} FROM webhooks WHERE id = ${id}`);
  if (!row) throw new NotFoundError("webhook");
  return row;
}

export async function createWebhook({ db, guard }: WebhookDeps, actor: Actor, locationId: string, body: WebhookCreateBody): Promise<WebhookCreated> {
  const url = checkWebhookUrl(body.url, guard);
  return withActor(db, personOnly(actor), async (tx) => {
    await requireAdmin(tx, actor, locationId);
    // Serializes creates per location, so two at once cannot both pass the count.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('webhooks:' || ${locationId}))`);
    const [count] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM webhooks WHERE location_id = ${locationId}`);
    if ((count?.n ?? 0) >= MAX_WEBHOOKS_PER_LOCATION)
      throw new ConflictError(`A location has at most ${MAX_WEBHOOKS_PER_LOCATION} webhooks.`, { limit: MAX_WEBHOOKS_PER_LOCATION });
    const [loc] = await rows<{ account_id: string }>(tx, sql`SELECT account_id::text FROM locations WHERE id = ${locationId}`);
    const id = uuidv7();
    const secret = newSigningSecret();
    const [row] = await rows<Row>(
      tx,
      sql`INSERT INTO webhooks (id, location_id, url, events, active, secret_sealed, created_by)
          VALUES (${id}, ${locationId}, ${url}, ${`{${body.events.join(",")}}`}::text[], ${body.active ?? true},
                  ${sealSigningSecret(loc!.account_id, id, secret)}, ${actor.userId})
          RETURNING ${COLUMNS}`,
    );
    await recordAudit(tx, actor, { action: "webhook.created", locationId, params: { host: hostOf(url) } });
    return { ...toWebhook(row!), secret };
  });
}

/** A location's webhooks, oldest first, a page at a time (spec convention 6). */
export async function listWebhooks(
  { db }: WebhookDeps,
  actor: Actor,
  locationId: string,
  query: PageQuery,
): Promise<{ items: Webhook[]; next_cursor: string | null }> {
  return withActor(db, personOnly(actor), async (tx) => {
    await requireAdmin(tx, actor, locationId);
    const after = query.cursor ? decodeCursor(query.cursor, cursorKey) : null;
    // The cursor keeps created_at to the microsecond: webhooks made in one millisecond are neither skipped nor repeated.
    const list = await rows<Row & { created_key: string }>(
      tx,
      sql`SELECT ${COLUMNS}, ${iso("created_at")} AS created_key FROM webhooks WHERE location_id = ${locationId}
            ${after ? sql`AND (created_at, id) > (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql``}
          ORDER BY created_at, id LIMIT ${query.limit + 1}`,
    );
    const page = pageFrom(list, query.limit, (r) => [r.created_key, r.id]);
    return { items: page.rows.map(toWebhook), next_cursor: page.next_cursor };
  });
}

export async function updateWebhook({ db, guard }: WebhookDeps, actor: Actor, id: string, body: WebhookPatchBody): Promise<Webhook> {
  const url = body.url === undefined ? undefined : checkWebhookUrl(body.url, guard);
  return withActor(db, personOnly(actor), async (tx) => {
    const current = await findWebhook(tx, id);
    await requireAdmin(tx, actor, current.location_id);
    if (body.rowVersion !== undefined && current.row_version !== body.rowVersion) throw new VersionConflictError(current.row_version);
    // Switching a webhook back on clears the reason it was switched off and its failure count.
    const reactivate = body.active === true && !current.active;
    const [row] = await rows<Row>(
      tx,
      sql`UPDATE webhooks SET
            url = ${url ?? current.url},
            events = ${`{${(body.events ?? current.events).join(",")}}`}::text[],
            active = ${body.active ?? current.active},
            disabled_reason = ${reactivate ? null : current.disabled_reason},
            consecutive_failures = ${reactivate ? 0 : current.consecutive_failures},
            row_version = row_version + 1, updated_at = now()
          WHERE id = ${id} RETURNING ${COLUMNS}`,
    );
    return toWebhook(row!);
  });
}

export async function deleteWebhook({ db }: WebhookDeps, actor: Actor, id: string): Promise<{ id: string; deleted: true }> {
  return withActor(db, personOnly(actor), async (tx) => {
    const current = await findWebhook(tx, id);
    await requireAdmin(tx, actor, current.location_id);
    await tx.execute(sql`DELETE FROM webhooks WHERE id = ${id}`);
    await recordAudit(tx, actor, { action: "webhook.deleted", locationId: current.location_id, params: { host: hostOf(current.url) } });
    return { id, deleted: true as const };
  });
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
export async function listDeliveries(
  { db }: WebhookDeps,
  actor: Actor,
  id: string,
  query: PageQuery,
): Promise<{ items: Delivery[]; next_cursor: string | null }> {
  return withActor(db, personOnly(actor), async (tx) => {
    const current = await findWebhook(tx, id);
    await requireAdmin(tx, actor, current.location_id);
    const after = query.cursor ? decodeCursor(query.cursor, cursorKey) : null;
    const list = await rows<DeliveryRow>(
      tx,
      sql`SELECT id::text, event_type, status, attempt, last_status_code, last_error, log,
            ${iso("last_attempt_at")} AS last_attempt_at,
            CASE WHEN status IN ('pending', 'delivering') THEN ${iso("next_attempt_at")} END AS next_attempt_at,
            ${iso("created_at")} AS created_at
          FROM webhook_deliveries WHERE webhook_id = ${id}
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
  });
}
