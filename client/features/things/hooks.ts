/**
 * What a thing's page reads from and asks of the server (its history, which secrets hold a value,
 * revealing one, undo): the screens and parts call these, never the API themselves. Everything
 * else about a thing is synced data, read from Dexie (ui/data.ts).
 */
import { useEffect, useState } from "react";
import type { HistoryEntry } from "../../../shared/history.js";
import { reauthenticate } from "../../auth/security-api.js";
import { api } from "../../sync/api.js";
import { useOnlineLoad } from "../../ui/OnlineOnly.js";

/** A thing's history, newest first; again whenever `version` (the server's version of the thing) changes. */
export function useThingHistory(thingId: string, version: number) {
  const [items, setItems] = useState<HistoryEntry[] | null>(null);
  const load = useOnlineLoad(
    () => api<{ items: HistoryEntry[] }>("GET", `/api/v1/things/${thingId}/history`).then((r) => setItems(r.items)),
    [thingId, version],
  );
  return { ...load, items };
}

/**
 * Which secret fields of the thing hold a value (the thing detail's `secrets`, never the values):
 * asked online when `enabled`; null while unknown (offline).
 */
export function useSecretsSet(thingId: string, version: number, enabled: boolean): Record<string, boolean> | null {
  const [set, setSet] = useState<Record<string, boolean> | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    api<{ secrets?: { key: string; set: boolean }[] }>("GET", `/api/v1/things/${thingId}`).then(
      (d) => live && setSet(Object.fromEntries((d.secrets ?? []).map((x) => [x.key, x.set]))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [thingId, version, enabled]);
  return set;
}

/** A secret field's value; the server may ask for the password again first (reauth_required). */
export const revealSecret = (thingId: string, key: string) => api<unknown>("POST", `/api/v1/things/${thingId}/secrets/${encodeURIComponent(key)}/reveal`, {});

/** The password again, for the sensitive calls that follow. */
export { reauthenticate };

/** Undoes one history entry (shared/undo.ts says whether this reader may). */
export const undoHistoryEntry = (entryId: string) => api("POST", `/api/v1/history/${entryId}/undo`);
