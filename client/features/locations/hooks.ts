/**
 * What the location screens read from and ask of the server (a location's settings, making,
 * transferring, deleting and restoring one, webhooks): the screens and parts call these, never the
 * API themselves. Reads are hooks that load through OnlineOnly's useOnlineLoad.
 */
import { useCallback, useEffect, useState } from "react";
import type { Location, TrashedLocation } from "../../../shared/locations.js";
import type { Member, MemberList } from "../../../shared/members.js";
import type { Delivery, Webhook, WebhookCreated, WebhookEvent } from "../../../shared/webhooks.js";
import { api, apiAll } from "../../sync/api.js";
import { useOnlineLoad } from "../../ui/OnlineOnly.js";

/** A location's webhooks (every page); reload() after a change. */
export function useWebhooks(locationId: string) {
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const load = useOnlineLoad(() => apiAll<Webhook>(`/api/v1/locations/${locationId}/webhooks`).then(setHooks), [locationId]);
  return { ...load, hooks };
}

export const createWebhook = (locationId: string, body: { url: string; events: WebhookEvent[] }) =>
  api<WebhookCreated>("POST", `/api/v1/locations/${locationId}/webhooks`, body);

export const setWebhookActive = (hook: Webhook, active: boolean) => api("PATCH", `/api/v1/webhooks/${hook.id}`, { active, rowVersion: hook.rowVersion });

export const deleteWebhook = (hookId: string) => api("DELETE", `/api/v1/webhooks/${hookId}`);

/** A webhook's last ten deliveries. */
export const webhookDeliveries = (hookId: string) => api<{ items: Delivery[] }>("GET", `/api/v1/webhooks/${hookId}/deliveries?limit=10`).then((r) => r.items);

/**
 * A location as the server holds it, and its members (for a new owner), for its settings;
 * `onLoad` runs with each location read (the name field starts from it). reload() after a refusal.
 */
export function useLocationSettings(locationId: string, onLoad: (l: Location) => void) {
  const [loc, setLoc] = useState<Location | null>(null);
  const [members, setMembers] = useState<Member[]>([]);
  const load = useOnlineLoad(
    () =>
      Promise.all([
        api<Location>("GET", `/api/v1/locations/${locationId}`).then((l) => {
          setLoc(l);
          onLoad(l);
        }),
        api<MemberList>("GET", `/api/v1/locations/${locationId}/members?limit=200`).then((p) => setMembers(p.items)),
      ]),
    [locationId],
  );
  return { ...load, loc, setLoc, members };
}

export const patchLocation = (locationId: string, body: Partial<Location> & { rowVersion: number }) =>
  api<Location>("PATCH", `/api/v1/locations/${locationId}`, body);

/** Hands the location to another member; `confirm` is its name typed again (the server checks it too). */
export const transferLocation = (locationId: string, body: { userId: string; confirm: string }) =>
  api<Location>("POST", `/api/v1/locations/${locationId}/transfer`, body);

/** Moves the location to the owner's trash; `confirm` is its name typed again. */
export const deleteLocation = (locationId: string, confirm: string) => api("DELETE", `/api/v1/locations/${locationId}`, { confirm });

/** The person becomes the new location's owner. */
export const createLocation = (name: string) => api<Location>("POST", "/api/v1/locations", { name });

/**
 * The owner's deleted locations, read when mounted and again when the device comes back online;
 * null while offline or unread. reload() after a restore.
 */
export function useLocationTrash() {
  const [items, setItems] = useState<TrashedLocation[] | null>(null);
  const reload = useCallback(() => {
    if (!navigator.onLine) return;
    apiAll<TrashedLocation>("/api/v1/trash/locations").then(setItems, () => setItems(null));
  }, []);
  useEffect(() => {
    reload();
    window.addEventListener("online", reload);
    return () => window.removeEventListener("online", reload);
  }, [reload]);
  return { items, reload };
}

export const restoreLocation = (locationId: string) => api("POST", `/api/v1/locations/${locationId}/restore`);
