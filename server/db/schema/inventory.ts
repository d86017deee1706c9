/** Places, place kinds, types and their fields, brands, things and files. */
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { FIELD_KINDS } from "../../../shared/fields.js";
import { CONDITIONS, LIFECYCLES } from "../../../shared/things.js";
import { users } from "./auth.js";
import { idColumn, syncedColumns, ts } from "./columns.js";
import { locations } from "./locations.js";

const locationRef = () =>
  uuid("location_id")
    .notNull()
    .references(() => locations.id);

export const placeKinds = pgTable(
  "place_kinds",
  {
    id: idColumn(),
    locationId: locationRef(),
    name: text("name"),
    icon: text("icon").notNull().default("place"),
    builtinKey: text("builtin_key"),
    ...syncedColumns(),
  },
  (t) => [index("place_kinds_location_idx").on(t.locationId), uniqueIndex("place_kinds_builtin_per_location").on(t.locationId, t.builtinKey)],
);

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
    uniqueIndex("places_short_code_unique").on(t.shortCode),
  ],
);

export const types = pgTable(
  "types",
  {
    id: idColumn(),
    locationId: locationRef(),
    /** Inheritance: a type sees its parent's fields (`source.via = inherited`). */
    parentId: uuid("parent_id").references((): AnyPgColumn => types.id),
    /** Group types this type belongs to; their fields apply with `source.via = group`. */
    groupIds: uuid("group_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    isGroup: boolean("is_group").notNull().default(false),
    icon: text("icon").notNull().default("thing"),
    /** Null for built-in types, whose display name comes from `builtinKey`. */
    name: text("name"),
    builtinKey: text("builtin_key"),
    /** New things of this type are containers unless said otherwise. */
    containerByDefault: boolean("container_by_default").notNull().default(false),
    ...syncedColumns(),
  },
  (t) => [index("types_location_idx").on(t.locationId), uniqueIndex("types_builtin_per_location").on(t.locationId, t.builtinKey)],
);

/** Fields defined on a type or on a place kind (exactly one of the two owners is set). */
export const typeFields = pgTable(
  "type_fields",
  {
    id: idColumn(),
    locationId: locationRef(),
    typeId: uuid("type_id").references(() => types.id),
    placeKindId: uuid("place_kind_id").references(() => placeKinds.id),
    key: text("key").notNull(),
    label: text("label"),
    labelKey: text("label_key"),
    kind: text("kind", { enum: FIELD_KINDS }).notNull(),
    unit: text("unit"),
    options: text("options").array(),
    repeatable: boolean("repeatable").notNull().default(false),
    required: boolean("required").notNull().default(false),
    secret: boolean("secret").notNull().default(false),
    sort: integer("sort").notNull().default(0),
    archivedAt: ts("archived_at"),
    ...syncedColumns(),
  },
  (t) => [
    index("type_fields_type_idx").on(t.typeId),
    index("type_fields_place_kind_idx").on(t.placeKindId),
    check("type_fields_one_owner", sql`(${t.typeId} is null) <> (${t.placeKindId} is null)`),
  ],
);

export const brands = pgTable(
  "brands",
  {
    id: idColumn(),
    locationId: locationRef(),
    name: text("name").notNull(),
    ...syncedColumns(),
  },
  (t) => [index("brands_location_idx").on(t.locationId)],
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
    model: text("model"),
    colour: text("colour"),
    serial: text("serial"),
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull().default({}),
    shortCode: text("short_code"),
    isContainer: boolean("is_container").notNull().default(false),
    coverFileId: uuid("cover_file_id").references(() => files.id),
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
    uniqueIndex("things_short_code_unique").on(t.shortCode),
    check("things_one_parent", sql`(${t.placeId} is null) <> (${t.containerId} is null)`),
    check("things_quantity_positive", sql`${t.quantity} > 0`),
  ],
);
