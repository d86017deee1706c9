/**
 * Overdue loans: once a loan's dueOn has passed (UTC) and it is still open, its lender (the person
 * who recorded it) is told once, by web push where they subscribed. `overdue_notified_at` makes it
 * once: the loans are claimed and marked (overdue-noted.ts) in one transaction (locked, skipped when locked, so two
 * replicas never both claim one), and the pushes go out after it committed. The spec's inbox kinds
 * are a fixed list with no loan kind, so there is no inbox item: in the app the Loans screen's
 * overdue count is where an overdue loan shows.
 */
import type { Logger } from "pino";
import type { PushLang, PushMessage } from "../../../shared/push.js";
import type { Config } from "../../config.js";
import { SYSTEM_ACTOR } from "../../commands/executor.js";
import { asSystem } from "../../db/actor.js";
import { rows, sql, uuidArray, type Db } from "../../db/client.js";
import type { GuardOptions } from "../../oauth/guarded-fetch.js";
import { pushGuard } from "../notifications/guard.js";
import { deliverPush } from "../notifications/send.js";
import { executeSystem } from "../write.js";

const HOUR = 3600_000;

export interface OverdueDeps {
  db: Db;
  config: Pick<Config, "vapid" | "pushAllowLoopback">;
  logger: Pick<Logger, "info" | "warn" | "error">;
  guard?: GuardOptions;
}

interface Claimed {
  id: string;
  location_id: string;
  created_by: string | null;
  direction: "out" | "in";
  person_name: string;
  due_on: string;
  thing_name: string | null;
}

export function overdueMessage(lang: PushLang, l: Claimed): PushMessage {
  const thing = (l.thing_name?.trim() || (lang === "ar" ? "غرض" : "A thing")).slice(0, 80);
  const url = `/l/${l.location_id}/loans?state=overdue`;
  const tag = `loan-${l.id}`;
  if (lang === "ar")
    return {
      title: `إعارة متأخرة: ${thing}`,
      body: l.direction === "out" ? `كان على ${l.person_name} إعادته في ${l.due_on}.` : `كان يجب إعادته إلى ${l.person_name} في ${l.due_on}.`,
      url,
      tag,
    };
  return {
    title: `Overdue: ${thing}`,
    body: l.direction === "out" ? `${l.person_name} was to bring it back by ${l.due_on}.` : `It was due back to ${l.person_name} on ${l.due_on}.`,
    url,
    tag,
  };
}

/** Claims the loans overdue at `now` not yet notified, marks them, then notifies; answers how many were claimed. */
export async function notifyOverdue(deps: OverdueDeps, now: Date = new Date()): Promise<{ claimed: number; sent: number }> {
  const today = now.toISOString().slice(0, 10);
  const claimed = await asSystem(deps.db, async (tx) => {
    const due = await rows<Claimed>(
      tx,
      sql`SELECT l.id::text AS id, l.location_id::text AS location_id, l.created_by::text AS created_by, l.direction,
            l.person_name, l.due_on::text AS due_on, t.name AS thing_name
          FROM loans l JOIN things t ON t.id = l.thing_id
          WHERE l.returned_at IS NULL AND l.deleted_at IS NULL AND l.overdue_notified_at IS NULL AND l.due_on < ${today}::date
          FOR UPDATE OF l SKIP LOCKED`,
    );
    const inputs = due.map((l) => ({ name: "loan.overdue_noted", locationId: l.location_id, args: { id: l.id, at: now.toISOString() } }));
    const refused = (await executeSystem(tx, SYSTEM_ACTOR, inputs, { undoWindowMs: 0 })).find((v) => v.status === "rejected");
    if (refused?.status === "rejected") throw refused.error;
    return due;
  });
  const lenders = [...new Set(claimed.map((c) => c.created_by).filter((x): x is string => !!x))];
  if (!lenders.length) return { claimed: claimed.length, sent: 0 };
  // Only lenders still able to read the loan's location hear about it.
  const subs = await rows<{ id: string; user_id: string; location_id: string; endpoint: string; p256dh: string; auth: string; lang: PushLang }>(
    deps.db,
    sql`SELECT s.id::text AS id, s.user_id::text AS user_id, m.location_id::text AS location_id, s.endpoint, s.p256dh, s.auth, s.lang
        FROM push_subscriptions s JOIN memberships m ON m.user_id = s.user_id AND m.deleted_at IS NULL
        WHERE s.user_id = ANY(${uuidArray(lenders)})`,
  );
  const delivery = { db: deps.db, vapid: deps.config.vapid, guard: pushGuard(deps.config, deps.guard), logger: deps.logger };
  let sent = 0;
  for (const loan of claimed)
    for (const s of subs.filter((x) => x.user_id === loan.created_by && x.location_id === loan.location_id)) {
      const { outcome } = await deliverPush(delivery, s.id, s, overdueMessage(s.lang, loan), "overdue loan push not delivered");
      if (outcome === "sent") sent++;
    }
  return { claimed: claimed.length, sent };
}

/** Runs notifyOverdue now and every hour; answers the stop function. */
export function startOverdueNotices(deps: OverdueDeps): () => void {
  const run = async () => {
    try {
      const { claimed } = await notifyOverdue(deps);
      if (claimed) deps.logger.info({ claimed }, "overdue loans notified");
    } catch (err) {
      deps.logger.error({ err }, "overdue loan notices failed");
    }
  };
  void run();
  const timer = setInterval(() => void run(), HOUR);
  timer.unref();
  return () => clearInterval(timer);
}
