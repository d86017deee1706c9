/**
 * What the location screens read from and ask of the server (webhooks): the screens and parts call
 * these, never the API themselves. Reads are hooks that load through OnlineOnly's useOnlineLoad.
 */
import { useState } from "react";
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
