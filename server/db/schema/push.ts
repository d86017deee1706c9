/**
 * Web push: each person's browser subscriptions, and the outbox of new inbox items the dispatcher
 * notifies about (filled by a trigger on inbox_items: migrations/0020_push_subscriptions.sql).
 * Neither is synced to devices nor reachable by app_role.
 */
import { bigint, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { PUSH_LANGS } from "../../../shared/push.js";
import { users } from "./auth.js";
import { idColumn, ts } from "./columns.js";

export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: idColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** A URL the server calls: checked by the outgoing-address guard on every send. */
    endpoint: text("endpoint").notNull(),
    /** The browser's keys (RFC 8291): they encrypt what is sent; never logged. */
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    label: text("label"),
    /** The app's language when it subscribed: notifications are written in it. */
    lang: text("lang", { enum: PUSH_LANGS }).notNull().default("en"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("push_subscriptions_user_endpoint_unique").on(t.userId, t.endpoint)],
);

export const pushPending = pgTable(
  "push_pending",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    inboxItemId: uuid("inbox_item_id").notNull(),
    locationId: uuid("location_id").notNull(),
    kind: text("kind").notNull(),
    createdBy: uuid("created_by"),
    createdAt: ts("created_at")
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index("push_pending_location_idx").on(t.locationId, t.createdAt)],
);
