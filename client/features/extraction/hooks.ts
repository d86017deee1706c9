/**
 * What the thing page's AI block reads from and asks of the server (every reading of a thing's
 * photos, reading them again): the parts call these, never the API themselves.
 */
import { useEffect, useState } from "react";
import type { ExtractionRecord } from "../../../shared/extractions.js";
import { api, ApiError } from "../../sync/api.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { errorText } from "../../ui/refusal.js";

const newestFirst = (a: ExtractionRecord, b: ExtractionRecord) => b.createdAt.localeCompare(a.createdAt);

/**
 * Every reading of a thing's photos, newest first: read when `open` and online, and again when the
 * server's thing changes (`rowVersion`: a reading applied) or on reload(). `error` is also the
 * caller's to set, for its own requests.
 */
export function useExtractions(thingId: string, rowVersion: number, open: boolean, online: boolean) {
  const { t } = useI18n();
  const [items, setItems] = useState<ExtractionRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = () =>
    api<{ items: ExtractionRecord[] }>("GET", `/api/v1/things/${thingId}/extractions`).then(
      (r) => {
        setItems([...r.items].sort(newestFirst));
        setError(null);
      },
      (err: unknown) => setError(err instanceof ApiError && err.offline ? t("ai.extractionsOffline") : errorText(err)),
    );
  useEffect(() => {
    if (open && online) void reload();
  }, [open, online, thingId, rowVersion]);
  return { items, error, setError, reload };
}

/** Reads the thing's photos again (its own extraction, mode "thing"). */
export const rerunExtraction = (thingId: string) => api<ExtractionRecord>("POST", `/api/v1/things/${thingId}/extractions`, { mode: "thing" });
