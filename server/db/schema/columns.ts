/**
 * Column sets shared by every synced table (DESIGN.md "Data conventions"): a device-made uuid id,
 * the location the row belongs to, a version counter for optimistic concurrency, and a tombstone so
 * that deletes stream like any other change.
 */
import { integer, timestamp, uuid } from "drizzle-orm/pg-core";

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const syncedColumns = () => ({
  rowVersion: integer("row_version").notNull().default(1),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
  deletedAt: ts("deleted_at"),
});

export const idColumn = () => uuid("id").primaryKey();
