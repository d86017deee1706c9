/**
 * What the report screens read from and ask of the server (exports, label sheets, inventory
 * reports, restoring an export and importing a CSV): the screens and parts call these, never the
 * API themselves. Each read follows the connection (useConnection): the hook answers `online` and
 * `fail`, which hands a request that found no server over to the connection and shows any other.
 */
import { useEffect, useState } from "react";
import type { LabelSheet } from "../../../shared/codes.js";
import type { CsvImportResult, ExportCreate, ExportRecord } from "../../../shared/exports.js";
import type { ReportJob, ReportRequest, ReportState } from "../../../shared/reports.js";
import { api, request } from "../../sync/api.js";
import { failure, useConnection } from "../../ui/OnlineOnly.js";

const EXPORT_POLL_MS = 1000;
const REPORT_POLL_MS = 2000;
export const unfinishedExport = (e: ExportRecord) => e.status === "queued" || e.status === "running";

/** The connection and one error for what a screen asks the server. */
function useServerState() {
  const { connected: online, lost } = useConnection();
  const [error, setError] = useState<string | null>(null);
  return { online, error, setError, fail: failure(lost, setError) };
}

/** A location's exports, read when `allowed` and online, and again every second while one is unfinished. */
export function useExports(locationId: string, allowed: boolean) {
  const state = useServerState();
  const { online, fail } = state;
  const [items, setItems] = useState<ExportRecord[]>([]);
  const load = () => api<{ items: ExportRecord[] }>("GET", "/api/v1/exports").then((r) => setItems(r.items.filter((e) => e.locationId === locationId)), fail);
  useEffect(() => {
    if (online && allowed) void load();
  }, [online, locationId, allowed]);
  // Follows unfinished exports until they end.
  const running = items.some(unfinishedExport);
  useEffect(() => {
    if (!running || !online) return;
    const timer = setInterval(() => void load(), EXPORT_POLL_MS);
    return () => clearInterval(timer);
  }, [running, online]);
  return { ...state, items, setItems };
}

export const startExport = (body: Omit<Extract<ExportCreate, { scope: "location" }>, "includesSecrets">) => api<ExportRecord>("POST", "/api/v1/exports", body);

export const cancelExport = (exportId: string) => api<ExportRecord>("POST", `/api/v1/exports/${exportId}/cancel`);

/** A location's label sheets, read when `allowed` and online; reload() after printing one. */
export function useLabelSheets(locationId: string, allowed: boolean) {
  const state = useServerState();
  const { online, fail } = state;
  const [sheets, setSheets] = useState<LabelSheet[] | null>(null);
  const reload = () => api<{ items: LabelSheet[] }>("GET", `/api/v1/locations/${locationId}/label-sheets`).then((r) => setSheets(r.items), fail);
  useEffect(() => {
    if (online && allowed) void reload();
  }, [online, locationId, allowed]);
  return { ...state, sheets, reload };
}

export const printLabelSheet = (locationId: string, count: number) => api<LabelSheet>("POST", `/api/v1/locations/${locationId}/label-sheets`, { count });

/**
 * The report being made: the one a mailed link opened (`opened`, read once online), or the one
 * asked for here (setJob); followed every 2 s until it is done or failed (a failed poll, e.g.
 * offline, tries again next time).
 */
export function useReportJob(opened: string | null) {
  const state = useServerState();
  const { online, fail } = state;
  const [job, setJob] = useState<ReportState | null>(null);
  useEffect(() => {
    if (opened && online) api<ReportState>("GET", `/api/v1/reports/${opened}`).then(setJob, fail);
  }, [opened, online]);
  useEffect(() => {
    if (!job || job.status === "done" || job.status === "failed") return;
    const timer = setTimeout(() => {
      api<ReportState>("GET", `/api/v1/reports/${job.id}`).then(setJob, () => setJob({ ...job }));
    }, REPORT_POLL_MS);
    return () => clearTimeout(timer);
  }, [job]);
  return { ...state, job, setJob };
}

export const startReport = (body: ReportRequest) => api<ReportJob>("POST", "/api/v1/reports/inventory", body);

/** What a restore brought in, and how many rows of each kind it left out. */
export interface Restored {
  places: number;
  things: number;
  photos: number;
  skipped: Record<string, number>;
}

const send = async <T>(path: string, file: File, type: string): Promise<T> => (await (await request("POST", path, new Blob([file], { type }))).json()) as T;

/** Restores an export's zip into the location (which must be empty). */
export const restoreExport = (locationId: string, file: File) => send<Restored>(`/api/v1/locations/${locationId}/imports`, file, "application/zip");

/** Imports things from a CSV; a dry run writes nothing and lists each row's problem. */
export const importCsv = (locationId: string, file: File, dryRun: boolean) =>
  send<CsvImportResult>(`/api/v1/locations/${locationId}/imports/csv?dryRun=${dryRun}`, file, "text/csv");
