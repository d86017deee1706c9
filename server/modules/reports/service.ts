/**
 * Requesting and reading inventory reports. Any reader of the location (viewers too) may ask for a
 * report; a report is its requester's alone (it holds what they may see: money by role), so others,
 * admins included, get 404 for it, as for a report that does not exist.
 */
import { v7 as uuidv7 } from "uuid";
import { REPORT_TTL_MS, type ReportJob, type ReportParams, type ReportRequest, type ReportState } from "../../../shared/reports.js";
import { type Actor, withActor } from "../../db/actor.js";
import { locationAccess } from "../../access/location.js";
import { ConflictError, GoneError, NotFoundError } from "../../errors/classes.js";
import type { ServiceDeps } from "../deps.js";
import { insertReportJob } from "./queue.js";
import { findReport, foreignFilterKind, reportPdf } from "./read.js";

export async function requestReport(deps: ServiceDeps, actor: Actor, body: ReportRequest, now = new Date()): Promise<ReportJob> {
  const locationId = body.scope.locationId;
  const params: ReportParams = {
    filters: body.filters ?? {},
    include: { photos: !!body.include?.photos, qr: !!body.include?.qr, money: !!body.include?.money },
    locale: body.locale ?? "en",
    digits: body.digits ?? "western",
    email: !!body.email,
  };
  const id = uuidv7();
  const expiresAt = new Date(now.getTime() + REPORT_TTL_MS);
  await withActor(deps.db, actor, async (tx) => {
    await locationAccess(tx, locationId);
    // Ids the filters name must be the location's (or its account's registries'): another's is 404, as if absent.
    const foreign = await foreignFilterKind(tx, locationId, params.filters);
    if (foreign) throw new NotFoundError(foreign);
    await insertReportJob(tx, { id, locationId, requestedBy: actor.userId, params, createdAt: now, expiresAt });
  });
  return { id, status: "queued", expiresAt: expiresAt.toISOString() };
}

export async function getReport(deps: ServiceDeps, actor: Actor, id: string): Promise<ReportState> {
  const { hasFile: _hasFile, ...state } = await withActor(deps.db, actor, (tx) => findReport(tx, id));
  return state;
}

/** The PDF: 409 while it is being made, 410 once expired (or failed). */
export async function reportFile(deps: ServiceDeps, actor: Actor, id: string): Promise<Buffer> {
  return withActor(deps.db, actor, async (tx) => {
    const report = await findReport(tx, id);
    if (report.status === "queued" || report.status === "running") throw new ConflictError("The report is not ready yet.");
    if (!report.hasFile) throw new GoneError("report");
    return reportPdf(tx, id);
  });
}
