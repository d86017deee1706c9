/**
 * Web push on this device: permission, the browser's PushManager subscription with the server's
 * VAPID key, and its record on the server (POST/DELETE /api/v1/me/push-subscriptions). The id the
 * server gave is kept in localStorage so turning it off removes exactly this device's record.
 */
import type { PushSubscribed, PushSubscriptionBody, VapidKey } from "../../shared/push.js";
import { api } from "../sync/api.js";
import type { Lang } from "./i18n/i18n.js";

const ID_KEY = "pushSubscriptionId";

export type PushState = "unsupported" | "denied" | "off" | "on";

export const pushSupported = (): boolean => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** getRegistration, not `ready`: that never settles where no worker was registered (a dev server). */
async function browserSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  return (await browserSubscription()) && localStorage.getItem(ID_KEY) ? "on" : "off";
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Records (or renews) this browser's subscription on the server, in the app's language. */
async function record(subscription: PushSubscription, lang: Lang): Promise<void> {
  const json = subscription.toJSON() as { endpoint?: string; keys?: { p256dh?: string; auth?: string } };
  const body: PushSubscriptionBody = {
    endpoint: json.endpoint ?? subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
    label: navigator.userAgent.slice(0, 80),
    lang,
  };
  const { id } = await api<PushSubscribed>("POST", "/api/v1/me/push-subscriptions", body);
  localStorage.setItem(ID_KEY, id);
}

export async function enablePush(lang: Lang): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  if ((await Notification.requestPermission()) !== "granted") return Notification.permission === "denied" ? "denied" : "off";
  const { publicKey } = await api<VapidKey>("GET", "/api/v1/push/vapid-public-key");
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  await record(subscription, lang);
  return "on";
}

/** The language changed: notifications follow it. */
export async function renewPush(lang: Lang): Promise<void> {
  const subscription = pushSupported() ? await browserSubscription() : null;
  if (subscription && localStorage.getItem(ID_KEY)) await record(subscription, lang);
}

/** Removes the server's record (when this device made one) and the browser's subscription. */
export async function disablePush(): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  const id = localStorage.getItem(ID_KEY);
  if (id) {
    await api("DELETE", `/api/v1/me/push-subscriptions/${id}`).catch((err: unknown) => {
      // Already gone on the server (404) is what we wanted.
      if ((err as { status?: number }).status !== 404) throw err;
    });
    localStorage.removeItem(ID_KEY);
  }
  await (await browserSubscription())?.unsubscribe();
  return Notification.permission === "denied" ? "denied" : "off";
}
