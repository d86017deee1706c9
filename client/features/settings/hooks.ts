/**
 * What the settings screens read from the server (whether this person administers the instance,
 * a location's AI cost): the screens and parts call these, never the API themselves.
 */
import { useEffect, useState } from "react";
import type { AiCostSummary } from "../../../shared/ai-settings.js";
import { api } from "../../sync/api.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { failure, useConnection } from "../../ui/OnlineOnly.js";

/** Whether this person is an instance admin: the server answers /admin/settings to them alone (403 for everyone else; offline, no). */
export function useIsInstanceAdmin(): boolean {
  const [admin, setAdmin] = useState(false);
  useEffect(() => {
    let live = true;
    void api("GET", "/api/v1/admin/settings").then(
      () => live && setAdmin(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return admin;
}

/**
 * One month's AI cost of a location (YYYY-MM), asked when `allowed` and the month is whole; with the
 * month it was asked for, so a slow answer for another month is never shown as this one's.
 */
export function useAiCosts(locationId: string, month: string, allowed: boolean) {
  const { t } = useI18n();
  const { connected: online, lost } = useConnection();
  const [summary, setSummary] = useState<{ month: string; summary: AiCostSummary } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!allowed || !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) return;
    if (!online) return setError(t("ai.costs.offline"));
    let live = true;
    api<AiCostSummary>("GET", `/api/v1/locations/${locationId}/ai-costs?month=${month}`).then(
      (s) => {
        if (!live) return;
        setSummary({ month, summary: s });
        setError(null);
      },
      (err: unknown) => live && failure(lost, setError)(err),
    );
    return () => {
      live = false;
    };
  }, [allowed, locationId, month, online]);
  return { summary, error };
}
