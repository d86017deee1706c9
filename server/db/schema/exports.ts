/** Exports of a location or an owner account (migrations/0028): the row is also the job's queue entry. */
import { bigint, boolean, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.js";
import { idColumn, ts } from "./columns.js";
import { accounts, locations } from "./locations.js";

export const exports = pgTable(
  "exports",
  {
    id: idColumn(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    locationId: uuid("location_id").references(() => locations.id, { onDelete: "cascade" }),
    scope: text("scope", { enum: ["location", "account"] }).notNull(),
    requestedBy: uuid("requested_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed", "cancelled", "expired"] })
      .notNull()
      .default("queued"),
    options: jsonb("options").$type<Record<string, unknown>>().notNull(),
    includesSecrets: boolean("includes_secrets").notNull().default(false),
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total").notNull().default(0),
    bytes: bigint("bytes", { mode: "number" }),
    sha256: text("sha256"),
    error: text("error"),
    attempt: integer("attempt").notNull().default(0),
    leaseUntil: ts("lease_until"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    finishedAt: ts("finished_at"),
    expiresAt: ts("expires_at"),
  },
  (t) => [index("exports_requester_idx").on(t.requestedBy, t.createdAt)],
);
