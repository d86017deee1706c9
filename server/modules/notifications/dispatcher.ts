/**
 * Sends the notifications about new inbox items, after their transactions committed: the
 * inbox_items trigger queues each new open item in push_pending (migrations/0020), and this claims
 * them with DELETE ... RETURNING, so a replica that loses the race gets nothing and a write never
 * waits for, or fails with, a push service.
 *
 * - Reviewers (members and up who subscribed) get one notification per burst: a location's queued
 *   items go out together once none has arrived for `pushBurstMs` (or the oldest waited ten times
 *   that), counted per person without the drafts they captured themselves.
 * - A sync drop goes at once, and only to the person whose op was dropped.
 */
import type { Logger } from "pino";
import type { PushLang, PushMessage } from "../../../shared/push.js";
import type { Config } from "../../config.js";
import { asSystem } from "../../db/actor.js";
import { rows, sql, uuidArray, type Db } from "../../db/client.js";
import type { GuardOptions } from "../../oauth/guarded-fetch.js";
import { pushGuard } from "./guard.js";
import { burstMessage, dropMessage } from "./messages.js";
import { deliverPush } from "./send.js";

export interface DispatchDeps {
  db: Db;
  config: Pick<Config, "vapid" | "pushAllowLoopback" | "pushBurstMs">;
  logger: Logger;
  /** Tests: a resolver or CA for the guard. */
  guard?: GuardOptions;
}

interface Claimed {
  item_id: string;
  location_id: string;
  kind: string;
  created_by: string | null;
}

interface Subscriber {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  lang: PushLang;
  location_id: string;
  location_name: string;
}

/** Parallel sends at most; a slow push service then holds up only its own share. */
const CONCURRENCY = 8;

/** Claims what is due at `now`: every queued sync drop, and the bursts that have gone quiet. */
async function claimDue(db: Db, now: Date, burstMs: number): Promise<Claimed[]> {
  const quietSince = new Date(now.getTime() - burstMs).toISOString();
  const oldestBefore = new Date(now.getTime() - burstMs * 10).toISOString();
  return asSystem(db, (tx) =>
    rows<Claimed>(
      tx,
      sql`WITH ready AS (
            SELECT location_id FROM push_pending WHERE kind <> 'sync_drop' GROUP BY location_id
            HAVING max(created_at) <= ${quietSince}::timestamptz OR min(created_at) <= ${oldestBefore}::timestamptz)
          DELETE FROM push_pending p WHERE p.kind = 'sync_drop' OR p.location_id IN (SELECT location_id FROM ready)
          RETURNING p.inbox_item_id::text AS item_id, p.location_id::text AS location_id, p.kind, p.created_by::text AS created_by`,
    ),
  );
}

/** The subscriptions of the people who review these locations (owner, admin, member). */
async function reviewers(db: Db, locationIds: string[]): Promise<Subscriber[]> {
  if (!locationIds.length) return [];
  return rows<Subscriber>(
    db,
    sql`SELECT s.id::text AS id, s.user_id::text AS user_id, s.endpoint, s.p256dh, s.auth, s.lang,
          m.location_id::text AS location_id, l.name AS location_name
        FROM push_subscriptions s
        JOIN memberships m ON m.user_id = s.user_id AND m.deleted_at IS NULL AND m.role IN ('owner', 'admin', 'member')
        JOIN locations l ON l.id = m.location_id AND l.deleted_at IS NULL
        WHERE m.location_id = ANY(${uuidArray(locationIds)})`,
  );
}

/** Items still open now (one reviewed during the burst needs no notification), with a drop's entity name. */
async function stillOpen(db: Db, ids: string[]): Promise<Map<string, string | null>> {
  if (!ids.length) return new Map();
  const found = await rows<{ id: string; name: string | null }>(
    db,
    sql`SELECT id::text AS id, payload #>> '{syncDrop,entity,name}' AS name FROM inbox_items
        WHERE id = ANY(${uuidArray(ids)}) AND status = 'open' AND deleted_at IS NULL`,
  );
  return new Map(found.map((r) => [r.id, r.name]));
}

async function subscriptionsOf(db: Db, userIds: string[]): Promise<Omit<Subscriber, "location_id" | "location_name">[]> {
  if (!userIds.length) return [];
  return rows(
    db,
    sql`SELECT id::text AS id, user_id::text AS user_id, endpoint, p256dh, auth, lang FROM push_subscriptions WHERE user_id = ANY(${uuidArray(userIds)})`,
  );
}

interface Outgoing {
  subscriptionId: string;
  target: { endpoint: string; p256dh: string; auth: string };
  message: PushMessage;
}

/** What to send for the claimed rows. */
async function plan(db: Db, claimed: Claimed[]): Promise<Outgoing[]> {
  const open = await stillOpen(
    db,
    claimed.map((c) => c.item_id),
  );
  const live = claimed.filter((c) => open.has(c.item_id));
  const out: Outgoing[] = [];
  const bursts = live.filter((c) => c.kind !== "sync_drop");
  const subs = await reviewers(db, [...new Set(bursts.map((c) => c.location_id))]);
  for (const s of subs) {
    // Someone's own captures are not news to them.
    const items = bursts.filter((c) => c.location_id === s.location_id && !(c.kind === "draft" && c.created_by === s.user_id));
    if (!items.length) continue;
    const message = burstMessage(s.lang, { locationId: s.location_id, locationName: s.location_name, count: items.length, firstItemId: items[0]!.item_id });
    out.push({ subscriptionId: s.id, target: s, message });
  }
  const drops = live.filter((c) => c.kind === "sync_drop" && c.created_by);
  const owners = await subscriptionsOf(db, [...new Set(drops.map((d) => d.created_by!))]);
  for (const d of drops)
    for (const s of owners.filter((o) => o.user_id === d.created_by))
      out.push({
        subscriptionId: s.id,
        target: s,
        message: dropMessage(s.lang, { locationId: d.location_id, itemId: d.item_id, entityName: open.get(d.item_id) ?? null }),
      });
  return out;
}

export interface DispatchResult {
  sent: number;
  gone: number;
  failed: number;
}

/** One round: claims what is due at `now` and sends it. Never throws for a push service's failure. */
export async function dispatchPush(deps: DispatchDeps, now: Date = new Date()): Promise<DispatchResult> {
  const claimed = await claimDue(deps.db, now, deps.config.pushBurstMs);
  const result: DispatchResult = { sent: 0, gone: 0, failed: 0 };
  if (!claimed.length) return result;
  const outgoing = await plan(deps.db, claimed);
  const delivery = { db: deps.db, vapid: deps.config.vapid, guard: pushGuard(deps.config, deps.guard), logger: deps.logger };
  const queue = [...outgoing];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { outcome } = await deliverPush(delivery, next.subscriptionId, next.target, next.message, "web push not delivered");
      result[outcome]++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  return result;
}

/** Runs dispatchPush every quarter of the burst time (0.2 s to 5 s); answers the stop function. */
export function startPushDispatcher(deps: DispatchDeps): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await dispatchPush(deps);
    } catch (err) {
      deps.logger.error({ err }, "web push dispatch failed");
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), Math.min(5000, Math.max(200, deps.config.pushBurstMs / 4)));
  timer.unref();
  return () => clearInterval(timer);
}
