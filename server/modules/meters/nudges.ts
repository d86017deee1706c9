/**
 * Nudges: a meter with nudgeDays whose latest counting reading is older than that gets one
 * `reading` inbox item (reason "overdue") in its location, where its members see it; like every new
 * inbox item it reaches subscribed reviewers by web push (server/modules/notifications). `nudged_for` holds the takenAt of the
 * reading a nudge was about, so each stale reading nudges once and never twice; a newer reading
 * changes the latest takenAt and so re-arms the meter.
 */
import { NUDGE_REASON, type InboxReading } from "../../../shared/meters.js";
import { SYSTEM_ACTOR } from "../../commands/executor.js";
import type { ModuleDeps } from "../manifest.js";
import { asSystem } from "../../db/actor.js";
import { rows, sql, type Db } from "../../db/client.js";
import { decimalOut } from "./estimate.js";
import { thumbUrl } from "../files/read.js";
import { executeSystem } from "../write.js";

const HOUR = 3600_000;

interface Due {
  id: string;
  location_id: string;
  thing_id: string;
  label: string | null;
  unit: string;
  created_by: string | null;
  value: string;
  taken_at: string;
  file_id: string | null;
}

/**
 * Sends the nudges due at `now`; answers how many. Runs with the service's own authority (a job
 * acts for no one): it reads every location's meters and runs one meter.nudge (nudge.ts) per due meter.
 * The meters are locked and skipped when locked, so two replicas running it never nudge twice.
 */
export async function sendNudges(db: Db, now: Date = new Date()): Promise<number> {
  return asSystem(db, async (tx) => {
    const due = await rows<Due>(
      tx,
      sql`SELECT m.id::text AS id, m.location_id::text AS location_id, m.thing_id::text AS thing_id, m.label, m.unit,
            m.created_by::text AS created_by, l.value::text AS value, l.file_id::text AS file_id,
            to_char(l.taken_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS taken_at
          FROM meters m
          JOIN things t ON t.id = m.thing_id AND t.deleted_at IS NULL
          JOIN locations loc ON loc.id = m.location_id AND loc.deleted_at IS NULL
          CROSS JOIN LATERAL (SELECT r.value, r.taken_at, r.file_id FROM readings r
            WHERE r.meter_id = m.id AND r.status = 'ok' AND r.deleted_at IS NULL
            ORDER BY r.taken_at DESC, r.id DESC LIMIT 1) l
          WHERE m.nudge_days IS NOT NULL AND m.deleted_at IS NULL
            AND l.taken_at < ${now.toISOString()}::timestamptz - make_interval(days => m.nudge_days)
            AND m.nudged_for IS DISTINCT FROM l.taken_at
          FOR UPDATE OF m SKIP LOCKED`,
    );
    if (!due.length) return 0;
    const inputs = due.map((m) => {
      const reading: InboxReading = {
        meter: { id: m.id, label: m.label, unit: m.unit },
        value: decimalOut(m.value),
        takenAt: new Date(m.taken_at).toISOString(),
        reason: NUDGE_REASON,
        neighbours: {},
        proofThumbUrl: m.file_id ? thumbUrl(m.file_id) : null,
      };
      const args = { id: m.id, thingId: m.thing_id, createdBy: m.created_by, takenAt: m.taken_at, dueAt: now.toISOString(), reading };
      return { name: "meter.nudge", locationId: m.location_id, args };
    });
    const verdicts = await executeSystem(tx, SYSTEM_ACTOR, inputs, { undoWindowMs: 0 });
    const refused = verdicts.find((v) => v.status === "rejected");
    if (refused?.status === "rejected") throw refused.error;
    return due.length;
  });
}

/** Runs sendNudges now and every hour; answers the stop function. */
export function startNudges({ database, logger }: Pick<ModuleDeps, "database" | "logger">): () => void {
  const run = async () => {
    try {
      const sent = await sendNudges(database.db);
      if (sent) logger.info({ sent }, "meter nudges sent");
    } catch (err) {
      logger.error({ err }, "meter nudges failed");
    }
  };
  void run();
  const timer = setInterval(() => void run(), HOUR);
  timer.unref();
  return () => clearInterval(timer);
}
