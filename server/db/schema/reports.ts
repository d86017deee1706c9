/**
 * Inventory report jobs (migrations/0027_report_jobs.sql): a leased queue of their own, the
 * finished PDF kept in the row until it expires. Not synced.
 */
import { sql } from "drizzle-orm";
import { check, customType, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import type { ReportParams } from "../../../shared/reports.js";
import { users } from "./auth.js";
import { idColumn, ts } from "./columns.js";
import { locations } from "./locations.js";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

export const reportJobs = pgTable(
  "report_jobs",
  {
    id: idColumn(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id, { onDelete: "cascade" }),
    requestedBy: uuid("requested_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    params: jsonb("params").$type<ReportParams>().notNull(),
    status: text("status").notNull().default("queued"),
    attempt: integer("attempt").notNull().default(0),
    leaseUntil: ts("lease_until"),
    file: bytea("file"),
    bytes: integer("bytes"),
    error: text("error"),
    createdAt: ts("created_at").notNull().defaultNow(),
    finishedAt: ts("finished_at"),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [
    index("report_jobs_due_idx")
      .on(t.status, t.createdAt)
      .where(sql`${t.status} IN ('queued', 'running')`),
    index("report_jobs_expires_idx")
      .on(t.expiresAt)
      .where(sql`${t.file} IS NOT NULL`),
    index("report_jobs_requester_idx").on(t.requestedBy, t.createdAt),
    check("report_jobs_status", sql`${t.status} IN ('queued', 'running', 'done', 'failed')`),
  ],
);
