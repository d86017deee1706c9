/**
 * The export worker in the server process: every `pollMs` it claims one due export (queue.ts) and
 * builds it (build.ts), and deletes the files of exports whose seven days ran out, in the shared
 * loop (server/jobs/poll-loop.ts). One export at a time per process: each is a full pass over the
 * data and the disk.
 */
import path from "node:path";
import type { Logger } from "pino";
import { EXPORT_TTL_DAYS, exportOptionsSchema, type ExportOptions } from "../../../shared/exports.js";
import type { ReportParams } from "../../../shared/reports.js";
import { rows, sql, type Db } from "../../db/client.js";
import { asSystem, withActor } from "../../db/actor.js";
import { reportData } from "../reports/data.js";
import { reportPdf } from "../reports/pdf.js";
import { requesterOf } from "../reports/requester.js";
import type { BlobStore } from "../files/storage.js";
import { startPollLoop, type PollLoop } from "../../jobs/poll-loop.js";
import { buildExport, Cancelled, removeExportFiles } from "./build.js";
import { claimDueExports, expireDue, fail, finish, heartbeat, releaseExports, type ClaimedExport } from "./queue.js";

export const EXPORT_LEASE_MS = 5 * 60_000;
export const exportDirOf = (dataDir: string) => path.join(dataDir, "exports");

export interface ExportWorkerDeps {
  db: Db;
  store: BlobStore;
  dir: string;
  logger: Logger;
  /** The public URL's origin: the report PDF's QR codes link there. */
  origin: string;
  pollMs?: number;
  /** Called between pages (tests pause a build here to cancel it mid-way). */
  onBeat?: (id: string, done: number, total: number) => Promise<void>;
}

/** drain(): builds what is due now and sweeps expired files, until nothing is due (tests call this). */
export type ExportWorker = PollLoop;

/** The locations the export covers, re-checked now: the person may have lost the right meanwhile. */
async function scopeOf(db: Db, job: ClaimedExport): Promise<string[] | null> {
  return asSystem(db, async (tx) => {
    if (job.scope === "location") {
      const ok = await rows<{ id: string }>(
        tx,
        sql`SELECT m.id::text AS id FROM memberships m WHERE m.location_id = ${job.location_id} AND m.user_id = ${job.requested_by}
              AND m.deleted_at IS NULL AND m.role IN ('owner', 'admin')`,
      );
      return ok.length ? [job.location_id!] : null;
    }
    const own = await rows<{ id: string }>(tx, sql`SELECT id::text AS id FROM accounts WHERE id = ${job.account_id} AND owner_user_id = ${job.requested_by}`);
    if (!own.length) return null;
    const locs = await rows<{ id: string }>(
      tx,
      sql`SELECT id::text AS id FROM locations WHERE account_id = ${job.account_id} AND deleted_at IS NULL ORDER BY id`,
    );
    return locs.map((l) => l.id);
  });
}

export async function runExport(deps: ExportWorkerDeps, job: ClaimedExport): Promise<void> {
  const { db, dir } = deps;
  const { locale, digits, ...stored } = job.options;
  const options = exportOptionsSchema.parse(stored);
  const locationIds = await scopeOf(db, job);
  if (!locationIds) return fail(db, job.id, "You no longer may export this.");
  const [created] = await asSystem(db, (tx) => rows<{ at: string }>(tx, sql`SELECT created_at AS at FROM exports WHERE id = ${job.id}`));
  try {
    const out = await buildExport(
      {
        db,
        store: deps.store,
        dir,
        beat: async (done, total) => {
          await deps.onBeat?.(job.id, done, total);
          return heartbeat(db, job.id, done, total, EXPORT_LEASE_MS);
        },
        report: (locationId) => exportReport(deps, job.requested_by, locationId, { options, locale, digits }),
      },
      { id: job.id, scope: job.scope, createdAt: new Date(created!.at).toISOString(), includesSecrets: job.includes_secrets },
      { accountId: job.account_id, locationIds, options },
    );
    // Cancelled between the last page and here: the file goes too.
    if (!(await finish(db, job.id, { ...out, ttlMs: EXPORT_TTL_DAYS * 86_400_000 }))) await removeExportFiles(dir, job.id);
  } catch (err) {
    if (err instanceof Cancelled) return;
    deps.logger.error({ err, exportId: job.id }, "export failed");
    await fail(db, job.id, "The export could not be built; try again.");
  }
}

/**
 * The `pdf` option: the location's inventory report, built as the requester (what they may see,
 * money by role) with what the export itself holds (ended and trashed things when it does),
 * photos, QR codes and money, in the export's language and digits.
 */
async function exportReport(deps: ExportWorkerDeps, requestedBy: string, locationId: string, o: { options: ExportOptions; locale: unknown; digits: unknown }) {
  const params: ReportParams = {
    filters: { includeEnded: o.options.ended, includeTrashed: o.options.trashed },
    include: { photos: true, qr: true, money: true },
    locale: o.locale === "ar" ? "ar" : "en",
    digits: o.digits === "eastern" ? "eastern" : "western",
    email: false,
  };
  const { actor } = await requesterOf(deps.db, requestedBy);
  const data = await withActor(deps.db, actor, (tx) => reportData(tx, locationId, params));
  return reportPdf(data, params, { store: deps.store, origin: deps.origin, now: new Date() });
}

export async function sweepExpired(deps: Pick<ExportWorkerDeps, "db" | "dir">, now = new Date()): Promise<number> {
  const ids = await expireDue(deps.db, now);
  for (const id of ids) await removeExportFiles(deps.dir, id);
  return ids.length;
}

export function startExportWorker(deps: ExportWorkerDeps, opts: { timer?: boolean } = {}): ExportWorker {
  return startPollLoop({
    claim: async (free) => {
      await sweepExpired(deps);
      return claimDueExports(deps.db, new Date(), EXPORT_LEASE_MS, free);
    },
    // Stopping ends a build at its next page; the export goes back to the queue for the next start.
    run: (job, signal) =>
      runExport(
        {
          ...deps,
          onBeat: async (id, done, total) => {
            if (signal.aborted) throw new Cancelled();
            await deps.onBeat?.(id, done, total);
          },
        },
        job,
      ),
    release: (ids) => releaseExports(deps.db, ids),
    logger: deps.logger,
    what: "export",
    pollMs: deps.pollMs ?? 2000,
    timer: opts.timer,
  });
}
