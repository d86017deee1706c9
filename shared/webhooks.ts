/** Webhooks (issue "data-out"): the event kinds, and the shapes of the admin routes. */
import { z } from "zod";
import { uuidSchema } from "./ids.js";

/** Every event a webhook may subscribe to (the OpenAPI document names them as this enum). */
export const WEBHOOK_EVENTS = [
  "thing.created",
  "thing.updated",
  "thing.deleted",
  "thing.moved",
  "inbox.item_created",
  "loan.created",
  "loan.returned",
  "move.created",
  "move.finished",
  "box.unpacked",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const MAX_WEBHOOK_URL = 2048;
/** Webhooks per location: a receiver per integration, not one per person. */
export const MAX_WEBHOOKS_PER_LOCATION = 20;
/** Consecutive failed attempts after which a webhook is switched off (one event's full retry run). */
export const WEBHOOK_FAILURE_LIMIT = 6;
/** Waits before the 2nd..6th attempt of a delivery. */
export const WEBHOOK_BACKOFF_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000] as const;

export const webhookEventSchema = z.enum(WEBHOOK_EVENTS);
const eventsSchema = z
  .array(webhookEventSchema)
  .min(1)
  .max(WEBHOOK_EVENTS.length)
  .refine((e) => new Set(e).size === e.length, "events: each event once");
const urlSchema = z.string().min(1).max(MAX_WEBHOOK_URL);

export const webhookCreateBody = z.strictObject({ url: urlSchema, events: eventsSchema, active: z.boolean().optional() });
export type WebhookCreateBody = z.infer<typeof webhookCreateBody>;

export const webhookPatchBody = z
  .strictObject({
    url: urlSchema.optional(),
    events: eventsSchema.optional(),
    active: z.boolean().optional(),
    rowVersion: z.number().int().min(1).optional(),
  })
  .refine((p) => Object.keys(p).some((k) => k !== "rowVersion"), "patch must change at least one field (url, events or active)");
export type WebhookPatchBody = z.infer<typeof webhookPatchBody>;

export const webhookSchema = z.object({
  id: uuidSchema,
  locationId: uuidSchema,
  url: z.string(),
  events: z.array(webhookEventSchema),
  active: z.boolean(),
  /** Why the service switched it off (`failing`), or null. */
  disabledReason: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  rowVersion: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer to creating one: the record and its signing secret, shown this once. */
export const webhookCreatedSchema = webhookSchema.extend({ secret: z.string().regex(/^whsec_/) });
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

export const DELIVERY_STATUSES = ["pending", "delivering", "delivered", "failed", "skipped"] as const;

export const deliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  at: z.string(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
});

export const deliverySchema = z.object({
  id: z.string(),
  eventType: webhookEventSchema,
  status: z.enum(DELIVERY_STATUSES),
  attempt: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  attempts: z.array(deliveryAttemptSchema),
});
export type Delivery = z.infer<typeof deliverySchema>;
