/**
 * Field work: meters and their readings (with photo proofs), box checks, and the short codes that
 * labels carry. Every table here is synced to devices by location, like things.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { METER_KINDS, READING_REASONS, READING_STATUSES } from "../../../shared/meters.js";
import type { BoxCheckSplit } from "../../../shared/box-checks.js";
import { users } from "./auth.js";
import { idColumn, syncedColumns, ts } from "./columns.js";
import { locations } from "./locations.js";
import { files, places, things } from "./inventory.js";

const locationRef = () =>
  uuid("location_id")
    .notNull()
    .references(() => locations.id);
/** Meter values: up to 15 digits before the point and 3 after (an odometer in metres fits). */
const reading = (name: string) => numeric(name, { precision: 18, scale: 3 });

export const meters = pgTable(
  "meters",
  {
    id: idColumn(),
    locationId: locationRef(),
    thingId: uuid("thing_id")
      .notNull()
      .references(() => things.id),
    kind: text("kind", { enum: METER_KINDS }).notNull(),
    unit: text("unit").notNull(),
    label: text("label"),
    /** Added to every reading taken since: a replaced counter starts again at 0, the total goes on. */
    offset: reading("offset").notNull().default("0"),
    maxPerDay: numeric("max_per_day", { precision: 14, scale: 3 }),
    nudgeDays: integer("nudge_days"),
    /** The reading time the last nudge was about: one nudge per stale reading, never two. */
    nudgedFor: ts("nudged_for"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    ...syncedColumns(),
  },
  (t) => [index("meters_location_idx").on(t.locationId), index("meters_thing_idx").on(t.thingId)],
);

export const readings = pgTable(
  "readings",
  {
    id: idColumn(),
    locationId: locationRef(),
    meterId: uuid("meter_id")
      .notNull()
      .references(() => meters.id),
    /** As read off the counter; the total is value + offset. */
    value: reading("value").notNull(),
    /** The meter's offset when the reading was taken (a later change of offset does not rewrite it). */
    offset: reading("offset").notNull().default("0"),
    /** When the device says it was read (not when it reached the server). */
    takenAt: ts("taken_at").notNull(),
    /** The photo proof, a file of the same location. */
    fileId: uuid("file_id").references(() => files.id),
    /** `review` while an implausible reading waits in the inbox; `rejected` readings count for nothing. */
    status: text("status", { enum: READING_STATUSES }).notNull().default("ok"),
    reason: text("reason", { enum: READING_REASONS }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    ...syncedColumns(),
  },
  (t) => [index("readings_location_idx").on(t.locationId), index("readings_meter_taken_idx").on(t.meterId, t.takenAt, t.id)],
);

export const boxChecks = pgTable(
  "box_checks",
  {
    id: idColumn(),
    locationId: locationRef(),
    containerId: uuid("container_id")
      .notNull()
      .references(() => things.id),
    /** When the person stood at the box (the device's time). */
    at: ts("at").notNull(),
    byUserId: uuid("by_user_id").references(() => users.id, { onDelete: "set null" }),
    seen: uuid("seen")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    notHere: uuid("not_here")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    split: jsonb("split").$type<BoxCheckSplit[]>().notNull().default([]),
    movedIn: uuid("moved_in")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    ...syncedColumns(),
  },
  (t) => [
    index("box_checks_location_idx").on(t.locationId),
    index("box_checks_container_at_idx").on(t.containerId, t.at, t.id),
    // A check reads the earlier "not here" findings of the things it names (`not_here && ids`).
    index("box_checks_not_here_idx").using("gin", t.notHere),
  ],
);

/**
 * Every short code the instance has handed out, unique across things, places and printed labels.
 * Things and places get one when they are created (a trigger, so no path can skip it; migration
 * 0019). A label sheet adds codes with no owner yet; claiming one gives it a thing or a place. A
 * code keeps answering for its owner after the owner gets another one (an old label still opens).
 */
export const codes = pgTable(
  "codes",
  {
    id: idColumn(),
    locationId: locationRef(),
    code: text("code").notNull(),
    thingId: uuid("thing_id").references(() => things.id),
    placeId: uuid("place_id").references(() => places.id),
    /** Set for codes printed on a label sheet. */
    sheetId: uuid("sheet_id"),
    claimedAt: ts("claimed_at"),
    claimedBy: uuid("claimed_by").references(() => users.id, { onDelete: "set null" }),
    ...syncedColumns(),
  },
  (t) => [
    uniqueIndex("codes_code_unique").on(t.code),
    index("codes_location_idx").on(t.locationId),
    index("codes_thing_idx").on(t.thingId),
    index("codes_place_idx").on(t.placeId),
    check("codes_one_owner", sql`${t.thingId} is null or ${t.placeId} is null`),
  ],
);

/** A sheet of not-yet-used codes an admin printed (the codes carry its id). */
export const labelSheets = pgTable(
  "label_sheets",
  {
    id: idColumn(),
    locationId: locationRef(),
    size: integer("size").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("label_sheets_location_idx").on(t.locationId, t.createdAt)],
);
