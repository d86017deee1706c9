/**
 * The report worker in the server process: every `pollMs` it claims due report jobs (queue.ts),
 * builds each PDF as its requester (data.ts, pdf.ts), keeps it in the job's row and, when asked,
 * mails the requester the download link. Every `expireMs` it deletes the files of expired reports.
 */
import type { Logger } from "pino";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { withActor } from "../../db/actor.js";
import { NotFoundError } from "../../errors/classes.js";
import type { Mailer } from "../../mail/mailer.js";
import { reportFilePath } from "../../../shared/reports.js";
import type { BlobStore } from "../files/storage.js";
import { reportData } from "./data.js";
import { reportPdf } from "./pdf.js";
import { requesterOf } from "./requester.js";
import { claimDue, expireReports, failReport, finishReport, releaseReports, type ClaimedReport } from "./queue.js";

export interface ReportWorkerDeps {
  db: Db;
  config: Pick<Config, "publicUrl">;
  store: BlobStore;
  mailer: Mailer;
  logger: Logger;
  pollMs?: number;
  expireMs?: number;
  leaseMs?: number;
  /** The clock (tests move it forward to see reports expire). */
  now?: () => Date;
}

export interface ReportWorker {
  /** Claims and builds what is due now, until nothing is (tests call this instead of waiting for the timer). */
  drain(): Promise<number>;
  /** Deletes expired files now. */
  expire(): Promise<number>;
  stop(): Promise<void>;
}

const SUBJECT = { en: "Your inventory report is ready", ar: "تقرير الجرد جاهز" } as const;

export function startReportWorker(deps: ReportWorkerDeps, opts: { timer?: boolean } = {}): ReportWorker {
  const { db, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const leaseMs = deps.leaseMs ?? 10 * 60_000;
  const origin = deps.config.publicUrl.origin;
  const inFlight = new Set<string>();
  let stopped = false;
  let round: Promise<number> | null = null;

  const build = async (job: ClaimedReport) => {
    const { actor, email } = await requesterOf(db, job.requested_by);
    let pdf: Buffer;
    try {
      const data = await withActor(db, actor, (tx) => reportData(tx, job.location_id, job.params));
      pdf = await reportPdf(data, job.params, { store: deps.store, origin, now: now() });
    } catch (err) {
      // Left the location since asking: nothing to report. Anything else fails the job with a plain code.
      const code = err instanceof NotFoundError ? "not_found" : "render_failed";
      if (code === "render_failed") logger.error({ err, reportId: job.id }, "report failed");
      await failReport(db, job.id, code, now());
      return;
    }
    await finishReport(db, job.id, pdf, now());
    if (job.params.email && email) {
      try {
        await deps.mailer.send({
          to: email,
          subject: SUBJECT[job.params.locale],
          // The app's report screen (it signs the person in first when needed) and the file itself.
          text: `${SUBJECT[job.params.locale]}:\n\n${origin}/l/${job.location_id}/report?id=${job.id}\n\nPDF: ${origin}${reportFilePath(job.id)}\n`,
          kind: "report-ready",
        });
      } catch (err) {
        // The report is there either way; the app shows it.
        logger.error({ err, reportId: job.id }, "report mail failed");
      }
    }
  };

  const once = async (): Promise<number> => {
    if (stopped) return 0;
    const claimed = await claimDue(db, now(), leaseMs, 1);
    for (const job of claimed) {
      inFlight.add(job.id);
      try {
        await build(job);
      } catch (err) {
        // A database blip: the job stays running and is claimed again when its lease ends.
        logger.error({ err, reportId: job.id }, "report job failed to run");
      } finally {
        inFlight.delete(job.id);
      }
    }
    return claimed.length;
  };
  const tick = (): Promise<number> => {
    round ??= once().finally(() => (round = null));
    return round;
  };
  const expire = async () => {
    const n = await expireReports(db, now());
    if (n) logger.info({ expired: n }, "expired report files deleted");
    return n;
  };

  const timers =
    opts.timer === false
      ? []
      : [
          setInterval(() => void tick().catch((err: unknown) => logger.error({ err }, "report claim failed")), deps.pollMs ?? 2000),
          setInterval(() => void expire().catch((err: unknown) => logger.error({ err }, "report expiry failed")), deps.expireMs ?? 3600_000),
        ];
  for (const t of timers) t.unref();

  return {
    async drain() {
      let total = 0;
      for (;;) {
        const n = await tick();
        if (!n) return total;
        total += n;
      }
    },
    expire,
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      const left = [...inFlight];
      await round?.catch(() => undefined);
      await releaseReports(db, left);
    },
  };
}
