/** Web push subscriptions (spec POST /api/v1/me/push-subscriptions) and the VAPID key the app subscribes with. */
import { z } from "zod";
import { uuidSchema } from "./ids.js";

/** Languages a notification can be written in (the app's own languages). */
export const PUSH_LANGS = ["en", "ar"] as const;
export type PushLang = (typeof PUSH_LANGS)[number];

/** Push service URLs are long (FCM's run to ~200 characters); 2 KiB leaves room and caps abuse. */
export const PUSH_ENDPOINT_MAX = 2048;

/**
 * The browser's keys as PushSubscription.toJSON() gives them, base64url: p256dh an uncompressed
 * P-256 point (65 bytes, first byte 0x04, so the text starts with "B"), auth 16 random bytes.
 */
const p256dhSchema = z.string().regex(/^B[A-Za-z0-9_-]{86}=?$/, "p256dh must be a base64url P-256 public key (65 bytes, uncompressed)");
const authSchema = z.string().regex(/^[A-Za-z0-9_-]{22}(==)?$/, "auth must be a base64url 16-byte secret");

export const pushSubscriptionBody = z
  .object({
    endpoint: z.string().min(1).max(PUSH_ENDPOINT_MAX).meta({ description: "The push service URL; https only" }),
    keys: z.object({ p256dh: p256dhSchema, auth: authSchema }).strict(),
    label: z.string().trim().min(1).max(80).optional().meta({ description: "A name for this device, shown in settings" }),
    lang: z.enum(PUSH_LANGS).optional().meta({ description: "Not in the spec: the app's language, which notifications are written in (default en)" }),
  })
  .strict();
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

export const pushSubscribedSchema = z.object({ id: uuidSchema }).meta({ id: "PushSubscribed" });
export type PushSubscribed = z.infer<typeof pushSubscribedSchema>;

export const pushRemovedSchema = z.object({ ok: z.literal(true) }).meta({ id: "PushSubscriptionRemoved" });

export const vapidKeySchema = z
  .object({ publicKey: z.string().meta({ description: "The VAPID public key, base64url: PushManager.subscribe's applicationServerKey" }) })
  .meta({ id: "VapidPublicKey" });
export type VapidKey = z.infer<typeof vapidKeySchema>;

/** What the service worker receives in a push message (encrypted end to end to the device). */
export const pushMessageSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** An app path, e.g. /l/{locationId}/inbox#item-{id}. */
  url: z.string().startsWith("/"),
  /** Notifications with the same tag replace each other (one per location's inbox). */
  tag: z.string(),
});
export type PushMessage = z.infer<typeof pushMessageSchema>;
