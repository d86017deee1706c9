/**
 * What the settings screens read from and ask of the server (whether this person administers the
 * instance and its settings and users, the AI providers and a location's AI cost, signing out):
 * the screens and parts call these, never the API themselves.
 */
import { useEffect, useState } from "react";
import type { AdminSettings, AdminUser, AdminUserList } from "../../../shared/admin.js";
import type { AiCostSummary, AiSettingsOverview, AiSettingsView } from "../../../shared/ai-settings.js";
import { api } from "../../sync/api.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { failure, useConnection, useOnlineLoad } from "../../ui/OnlineOnly.js";
import { pageQuery } from "../../ui/use-paged.js";

export { signOut } from "../../auth/auth-api.js";

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

/**
 * The instance's settings and its users, 50 a page (read together, so one failure is one error);
 * more() appends the next page of users.
 */
export function useAdmin() {
  const [settings, setSettings] = useState<AdminSettings | null>(null);
  const [users, setUsers] = useState<AdminUser[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const page = (after: string | null) =>
    api<AdminUserList>("GET", `/api/v1/admin/users${pageQuery(50, after)}`).then((p) => {
      setUsers((u) => (after ? [...u, ...p.items] : p.items));
      setCursor(p.next_cursor);
    });
  const load = useOnlineLoad(() => Promise.all([api<AdminSettings>("GET", "/api/v1/admin/settings").then(setSettings), page(null)]), []);
  return { ...load, settings, setSettings, users, hasMore: cursor !== null, more: () => (cursor ? page(cursor) : Promise.resolve()) };
}

export const saveAdminSettings = (body: { signupOpen: boolean }) => api<AdminSettings>("PATCH", "/api/v1/admin/settings", body);

/** Whose AI provider: this person's own, or their account's (paying for everyone in its locations). */
export type AiScope = "user" | "account";
const AI_PATHS: Record<AiScope, string> = { user: "/api/v1/me/ai-settings", account: "/api/v1/me/account/ai-settings" };

/** The AI providers this person may use (theirs, their account's, the server's), asked whenever the connection is back. */
export function useAiSettings() {
  const { t } = useI18n();
  const { connected: online, lost } = useConnection();
  const [overview, setOverview] = useState<AiSettingsOverview | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!online) return setError(t("ai.settings.offline"));
    let live = true;
    api<AiSettingsOverview>("GET", AI_PATHS.user).then(
      (o) => {
        if (!live) return;
        setOverview(o);
        setError(null);
      },
      (err: unknown) => live && failure(lost, setError)(err),
    );
    return () => {
      live = false;
    };
  }, [online]);
  return { overview, setOverview, error };
}

/** Stores a provider; with `check`, the server asks the provider about a new key first (a refused one saves nothing). */
export const saveAiSettings = (scope: AiScope, body: unknown) => api<AiSettingsView>("PUT", AI_PATHS[scope], body);

export const removeAiSettings = (scope: AiScope) => api("DELETE", AI_PATHS[scope]);
