/**
 * Webhooks and their delivery outbox (migrations/0030_webhooks.sql). Neither is synced: webhooks
 * are an admin's online settings; deliveries are filled by triggers and worked by the service.
 */
import { boolean, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { users } from "./auth.js";
import { idColumn, ts } from "./columns.js";
import { locations } from "./locations.js";

export const webhooks = pgTable(
  "webhooks",
  {
    id: idColumn(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    active: boolean("active").notNull().default(true),
    disabledReason: text("disabled_reason"),
    /** The signing secret sealed with the server secret (server/modules/webhooks/secret.ts). */
    secretSealed: text("secret_sealed").notNull(),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    rowVersion: integer("row_version").notNull().default(1),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("webhooks_location_idx").on(t.locationId, t.createdAt)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    webhookId: uuid("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    locationId: uuid("location_id").notNull(),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").notNull(),
    status: text("status").notNull().default("pending"),
    attempt: integer("attempt").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    leaseUntil: ts("lease_until"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: ts("last_attempt_at"),
    log: jsonb("log").notNull().default([]),
    createdAt: ts("created_at")
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status IN ('pending', 'delivering')`),
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt, t.id),
  ],
);
