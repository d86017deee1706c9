/** Places, things, files and the secret field values of things and places. */
import type { FieldStatus } from "../../../shared/extractions.js";
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { CONDITIONS, LIFECYCLES } from "../../../shared/things.js";
import { users } from "./auth.js";
import { idColumn, syncedColumns, ts } from "./columns.js";
import { locations } from "./locations.js";
import { brands, placeKinds, typeFields, types } from "./registries.js";

const locationRef = () =>
  uuid("location_id")
    .notNull()
    .references(() => locations.id);

export const places = pgTable(
  "places",
  {
    id: idColumn(),
    locationId: locationRef(),
    parentId: uuid("parent_id").references((): AnyPgColumn => places.id),
    kindId: uuid("kind_id").references(() => placeKinds.id),
    name: text("name").notNull(),
    /** Every location has exactly one Unplaced area, where things of unknown place sit. */
    isUnplaced: boolean("is_unplaced").notNull().default(false),
    /** Given by the database on insert and registered in `codes`, which keeps codes unique (migration 0019). */
    shortCode: text("short_code"),
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull().default({}),
    ...syncedColumns(),
  },
  (t) => [
    index("places_location_idx").on(t.locationId),
    index("places_parent_idx").on(t.parentId),
    uniqueIndex("places_one_unplaced_per_location")
      .on(t.locationId)
      .where(sql`${t.isUnplaced}`),
  ],
);

export const files = pgTable(
  "files",
  {
    id: idColumn(),
    locationId: locationRef(),
    /** Content address of the blob under SVC_DATA_DIR/files. */
    sha256: text("sha256").notNull(),
    size: integer("size").notNull(),
    mime: text("mime").notNull(),
    width: integer("width"),
    height: integer("height"),
    thumbSha256: text("thumb_sha256"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    ...syncedColumns(),
  },
  (t) => [index("files_location_idx").on(t.locationId)],
);

export const things = pgTable(
  "things",
  {
    id: idColumn(),
    locationId: locationRef(),
    /** A thing sits either directly in a place or inside a container (another thing). */
    placeId: uuid("place_id").references(() => places.id),
    containerId: uuid("container_id").references((): AnyPgColumn => things.id),
    typeId: uuid("type_id")
      .notNull()
      .references(() => types.id),
    name: text("name"),
    description: text("description"),
    quantity: numeric("quantity", { precision: 14, scale: 3 }).notNull().default("1"),
    lifecycle: text("lifecycle", { enum: LIFECYCLES }).notNull().default("active"),
    condition: text("condition", { enum: CONDITIONS }),
    brandId: uuid("brand_id").references(() => brands.id),
    /** Tags of the owner account (no foreign key on array elements; commands check them). */
    tagIds: uuid("tag_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    model: text("model"),
    colour: text("colour"),
    serial: text("serial"),
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull().default({}),
    /** What each field's value is known from, with suggestions waiting for a person (shared/extractions.ts). */
    fieldStatus: jsonb("field_status").$type<FieldStatus>().notNull().default({}),
    /** Given by the database on insert and registered in `codes`, which keeps codes unique (migration 0019). */
    shortCode: text("short_code"),
    isContainer: boolean("is_container").notNull().default(false),
    /** The cover (lists and the inbox show it small): one of `photoFileIds`, or null when there are none. */
    coverFileId: uuid("cover_file_id").references(() => files.id),
    /** The thing's photos, image files of its location in the order added (server/modules/things/photos.ts, migration 0033). */
    photoFileIds: uuid("photo_file_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    lastSeenAt: ts("last_seen_at"),
    /** Set when a box check did not find the thing where it should be (derived state `uncertain`). */
    missingSince: ts("missing_since"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    ...syncedColumns(),
  },
  (t) => [
    index("things_location_idx").on(t.locationId),
    // The things list pages by name (server/modules/things/read.ts): an ordered scan, not a sort.
    index("things_location_name_idx")
      .on(t.locationId, sql`lower(coalesce(${t.name}, ''))`, t.id)
      .where(sql`${t.deletedAt} is null`),
    index("things_place_idx").on(t.placeId),
    index("things_container_idx").on(t.containerId),
    index("things_type_idx").on(t.typeId),
    // Duplicate look-ups (server/modules/duplicates/raise.ts, migration 0021).
    index("things_serial_idx")
      .on(t.locationId, sql`lower(btrim(${t.serial}))`)
      .where(sql`${t.deletedAt} is null and ${t.serial} is not null`),
    index("things_brand_model_idx")
      .on(t.locationId, t.brandId, sql`lower(btrim(${t.model}))`)
      .where(sql`${t.deletedAt} is null and ${t.brandId} is not null`),
    check("things_one_parent", sql`(${t.placeId} is null) <> (${t.containerId} is null)`),
    check("things_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

/**
 * Values of secret fields, encrypted (AES-256-GCM with a key per owner account derived from the
 * server secret). Never synced, never in `fields`: a shape, an export without secrets or a history
 * entry cannot carry what is not in the rows they read. One value per field of a thing or a place.
 */
export const secretValues = pgTable(
  "secret_values",
  {
    id: idColumn(),
    locationId: locationRef(),
    thingId: uuid("thing_id").references(() => things.id),
    placeId: uuid("place_id").references(() => places.id),
    fieldId: uuid("field_id")
      .notNull()
      .references(() => typeFields.id),
    /** base64 of iv (12 bytes) || ciphertext || tag (16 bytes). */
    ciphertext: text("ciphertext").notNull(),
    rowVersion: integer("row_version").notNull().default(1),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("secret_values_thing_field")
      .on(t.thingId, t.fieldId)
      .where(sql`${t.thingId} is not null`),
    uniqueIndex("secret_values_place_field")
      .on(t.placeId, t.fieldId)
      .where(sql`${t.placeId} is not null`),
    index("secret_values_location_idx").on(t.locationId),
    check("secret_values_one_owner", sql`(${t.thingId} is null) <> (${t.placeId} is null)`),
  ],
);
