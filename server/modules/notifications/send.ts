/**
 * One push message to one subscription. web-push builds the request (VAPID JWT, RFC 8291 aes128gcm
 * encryption) with generateRequestDetails, and the request goes out through the outgoing-address
 * guard rather than web-push's own https client (research/stack-spike-2.md): the endpoint is a URL
 * someone gave us. Nothing here logs an endpoint or a key.
 */
import { eq } from "drizzle-orm";
import type { Logger } from "pino";
import webpush from "web-push";
import type { PushMessage } from "../../../shared/push.js";
import type { VapidConfig } from "../../config.js";
import type { Db } from "../../db/client.js";
import { pushSubscriptions } from "../../db/schema/index.js";
import { GuardRefusal, checkOutgoingUrl, guardedRequest, type GuardOptions } from "../../oauth/guarded-fetch.js";

/** Kept a day: a notification about new items that arrives later than that is stale. */
const TTL_SECONDS = 24 * 3600;

export interface Target {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** sent: 2xx; gone: 404/410, the subscription is dead (RFC 8030 7.3); failed: anything else. */
export type SendOutcome = { outcome: "sent" } | { outcome: "gone"; status: number } | { outcome: "failed"; reason: string };

export async function sendPush(target: Target, message: PushMessage, vapid: VapidConfig, guard: GuardOptions): Promise<SendOutcome> {
  let url: URL;
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    url = checkOutgoingUrl(target.endpoint, guard);
    details = webpush.generateRequestDetails({ endpoint: url.href, keys: { p256dh: target.p256dh, auth: target.auth } }, JSON.stringify(message), {
      vapidDetails: vapid,
      TTL: TTL_SECONDS,
      contentEncoding: "aes128gcm",
      urgency: "normal",
    });
  } catch (err) {
    // Bad keys make web-push throw; the message would echo them, so only the kind is kept.
    return { outcome: "failed", reason: err instanceof GuardRefusal ? err.reason : "the request could not be built" };
  }
  try {
    const res = await guardedRequest(url, { method: "POST", headers: details.headers, ...(details.body ? { body: details.body } : {}) }, guard);
    if (res.status >= 200 && res.status < 300) return { outcome: "sent" };
    if (res.status === 404 || res.status === 410) return { outcome: "gone", status: res.status };
    return { outcome: "failed", reason: `status ${res.status}` };
  } catch (err) {
    return { outcome: "failed", reason: err instanceof GuardRefusal ? err.reason : "the request failed" };
  }
}

/** What delivering to a stored subscription needs besides the message. */
export interface Delivery {
  db: Db;
  vapid: VapidConfig;
  guard: GuardOptions;
  logger: Pick<Logger, "warn">;
}

/**
 * One message to one stored subscription, and what its answer means for the subscription: every
 * sender of the service delivers through here. `notDelivered` is the log line of a failure.
 */
export async function deliverPush(d: Delivery, subscriptionId: string, target: Target, message: PushMessage, notDelivered: string): Promise<SendOutcome> {
  const sent = await sendPush(target, message, d.vapid, d.guard);
  // The browser dropped the subscription (RFC 8030 7.3): never send to it again.
  if (sent.outcome === "gone") await d.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId));
  // The subscription id only: endpoints are capability URLs and keys are secrets.
  else if (sent.outcome === "failed") d.logger.warn({ subscriptionId, reason: sent.reason }, notDelivered);
  return sent;
}
