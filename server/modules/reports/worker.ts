/**
 * The report worker in the server process: every `pollMs` it claims a due report job (queue.ts, in
 * the shared loop server/jobs/poll-loop.ts), builds its PDF as its requester (data.ts, pdf.ts),
 * keeps it in the job's row and, when asked, mails the requester the download link. Every
 * `expireMs` it deletes the files of expired reports.
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
import { startPollLoop } from "../../jobs/poll-loop.js";
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

  const expire = async () => {
    const n = await expireReports(db, now());
    if (n) logger.info({ expired: n }, "expired report files deleted");
    return n;
  };

  const loop = startPollLoop({
    claim: (free) => claimDue(db, now(), leaseMs, free),
    run: build,
    failed: (err, job) => logger.error({ err, reportId: job.id }, "report job failed to run"),
    release: (ids) => releaseReports(db, ids),
    logger,
    what: "report",
    pollMs: deps.pollMs ?? 2000,
    timer: opts.timer,
  });
  const expiry =
    opts.timer === false
      ? null
      : setInterval(() => void expire().catch((err: unknown) => logger.error({ err }, "report expiry failed")), deps.expireMs ?? 3600_000);
  expiry?.unref();

  return {
    drain: () => loop.drain(),
    expire,
    async stop() {
      if (expiry) clearInterval(expiry);
      await loop.stop();
    },
  };
}
