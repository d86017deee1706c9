/**
 * Moves and loans (migrations/0024_moves_loans.sql). A move belongs to the location its boxes
 * leave; its boxes are `move_boxes` rows. A loan belongs to its thing's location; its person is a
 * member or a contact of the owner account. All four tables sync to devices (a mover scans boxes
 * in the truck with no signal; a loan is made and returned offline).
 */
import { sql } from "drizzle-orm";
import { check, date, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { LOAN_DIRECTIONS, type LoanCondition } from "../../../shared/loans.js";
import { BOX_STATES, MOVE_STATUSES } from "../../../shared/moves.js";
import { users } from "./auth.js";
import { idColumn, syncedColumns, ts } from "./columns.js";
import { places, things } from "./inventory.js";
import { accounts, locations } from "./locations.js";

const locationRef = () =>
  uuid("location_id")
    .notNull()
    .references(() => locations.id);

export const moves = pgTable(
  "moves",
  {
    id: idColumn(),
    /** Where the boxes leave from; the move's readers are this location's. */
    locationId: locationRef(),
    toLocationId: uuid("to_location_id").references(() => locations.id),
    /** The target's name when it was chosen: a reader of the source may not read the target. */
    toLocationName: text("to_location_name"),
    name: text("name").notNull(),
    status: text("status", { enum: MOVE_STATUSES }).notNull().default("active"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    finishedAt: ts("finished_at"),
    ...syncedColumns(),
  },
  (t) => [index("moves_location_idx").on(t.locationId, t.createdAt), check("moves_status", sql`${t.status} IN ('active', 'finished', 'cancelled')`)],
);

export const moveBoxes = pgTable(
  "move_boxes",
  {
    id: idColumn(),
    /** The move's location (the box itself may be in the target location once unpacked). */
    locationId: locationRef(),
    moveId: uuid("move_id")
      .notNull()
      .references(() => moves.id),
    containerId: uuid("container_id")
      .notNull()
      .references(() => things.id),
    /** 1, 2, 3... per move: what is written on the box. */
    number: integer("number").notNull(),
    state: text("state", { enum: BOX_STATES }).notNull().default("packed"),
    stateAt: ts("state_at").notNull().defaultNow(),
    /** Where the box goes in the target location: a place there, or only a name ("kitchen") until one exists. */
    destinationPlaceId: uuid("destination_place_id").references(() => places.id),
    destinationName: text("destination_name"),
    ...syncedColumns(),
  },
  (t) => [
    index("move_boxes_location_idx").on(t.locationId),
    uniqueIndex("move_boxes_number_per_move")
      .on(t.moveId, t.number)
      .where(sql`${t.deletedAt} IS NULL`),
    uniqueIndex("move_boxes_container_per_move")
      .on(t.moveId, t.containerId)
      .where(sql`${t.deletedAt} IS NULL`),
    index("move_boxes_container_idx").on(t.containerId),
    check("move_boxes_state", sql`${t.state} IN ('packed', 'in_transit', 'unpacked')`),
    check("move_boxes_number_positive", sql`${t.number} > 0`),
  ],
);

/** A person of the owner account who is not a member: a neighbour who borrowed the drill. */
export const contacts = pgTable(
  "contacts",
  {
    id: idColumn(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    ...syncedColumns(),
  },
  (t) => [index("contacts_account_idx").on(t.accountId)],
);

export const loans = pgTable(
  "loans",
  {
    id: idColumn(),
    locationId: locationRef(),
    thingId: uuid("thing_id")
      .notNull()
      .references(() => things.id),
    direction: text("direction", { enum: LOAN_DIRECTIONS }).notNull(),
    personUserId: uuid("person_user_id").references(() => users.id, { onDelete: "set null" }),
    contactId: uuid("contact_id").references(() => contacts.id),
    /** The person's name when the loan was made (a member's display name may change; a removed member's stays). */
    personName: text("person_name").notNull(),
    quantity: numeric("quantity", { precision: 14, scale: 3 }).notNull(),
    /** Lending part of a quantity splits the thing: the loan's thing is the new one, made from this. */
    splitFromThingId: uuid("split_from_thing_id").references(() => things.id),
    startedAt: ts("started_at").notNull(),
    dueOn: date("due_on", { mode: "string" }),
    returnedAt: ts("returned_at"),
    /** Where the thing was when it went out, offered as the place it comes back to. */
    previousPlaceId: uuid("previous_place_id"),
    previousContainerId: uuid("previous_container_id"),
    returnPlaceId: uuid("return_place_id"),
    returnContainerId: uuid("return_container_id"),
    notes: text("notes"),
    conditionOut: jsonb("condition_out").$type<LoanCondition[]>().notNull().default([]),
    conditionIn: jsonb("condition_in").$type<LoanCondition[]>().notNull().default([]),
    /** When the lender was told the loan is overdue: once per loan. */
    overdueNotifiedAt: ts("overdue_notified_at"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    ...syncedColumns(),
  },
  (t) => [
    index("loans_location_idx").on(t.locationId, t.startedAt),
    index("loans_thing_idx").on(t.thingId),
    index("loans_open_due_idx")
      .on(t.dueOn)
      .where(sql`${t.returnedAt} IS NULL AND ${t.deletedAt} IS NULL`),
    check("loans_direction", sql`${t.direction} IN ('out', 'in')`),
    // At most one: a member's account may be deleted later (the reference becomes null, `personName` stays).
    check("loans_one_person", sql`${t.personUserId} IS NULL OR ${t.contactId} IS NULL`),
    check("loans_quantity_positive", sql`${t.quantity} > 0`),
  ],
);
