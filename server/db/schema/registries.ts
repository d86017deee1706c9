/**
 * Registries: types and their fields, place kinds (whose fields share the type_fields table),
 * brands, tags and templates. They belong to the owner account and are shared by all of its
 * locations (DESIGN.md "Data conventions"), so they carry `account_id` where captured rows carry
 * `location_id`: a type field spans every location of the account.
 */
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { FIELD_KINDS } from "../../../shared/fields.js";
import { idColumn, syncedColumns, ts } from "./columns.js";
import { accounts } from "./locations.js";

const accountRef = () =>
  uuid("account_id")
    .notNull()
    .references(() => accounts.id);

export const placeKinds = pgTable(
  "place_kinds",
  {
    id: idColumn(),
    accountId: accountRef(),
    name: text("name"),
    icon: text("icon").notNull().default("place"),
    builtinKey: text("builtin_key"),
    archivedAt: ts("archived_at"),
    ...syncedColumns(),
  },
  (t) => [index("place_kinds_account_idx").on(t.accountId), uniqueIndex("place_kinds_builtin_per_account").on(t.accountId, t.builtinKey)],
);

export const types = pgTable(
  "types",
  {
    id: idColumn(),
    accountId: accountRef(),
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
    /** An archived type is offered for no new thing; things of it keep it. */
    archivedAt: ts("archived_at"),
    ...syncedColumns(),
  },
  (t) => [index("types_account_idx").on(t.accountId), uniqueIndex("types_builtin_per_account").on(t.accountId, t.builtinKey)],
);

/** Fields defined on a type or on a place kind (exactly one of the two owners is set). */
export const typeFields = pgTable(
  "type_fields",
  {
    id: idColumn(),
    accountId: accountRef(),
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
    /** Archived: offered for no new value; the values already entered are kept. */
    archivedAt: ts("archived_at"),
    ...syncedColumns(),
  },
  (t) => [
    index("type_fields_account_idx").on(t.accountId),
    // A key names one field of its owner for good (archived fields keep theirs: their values stay).
    uniqueIndex("type_fields_key_per_type")
      .on(t.typeId, t.key)
      .where(sql`${t.typeId} is not null and ${t.deletedAt} is null`),
    uniqueIndex("type_fields_key_per_place_kind")
      .on(t.placeKindId, t.key)
      .where(sql`${t.placeKindId} is not null and ${t.deletedAt} is null`),
    check("type_fields_one_owner", sql`(${t.typeId} is null) <> (${t.placeKindId} is null)`),
  ],
);

export const brands = pgTable(
  "brands",
  {
    id: idColumn(),
    accountId: accountRef(),
    name: text("name").notNull(),
    ...syncedColumns(),
  },
  (t) => [index("brands_account_idx").on(t.accountId)],
);

export const tags = pgTable(
  "tags",
  {
    id: idColumn(),
    accountId: accountRef(),
    name: text("name").notNull(),
    /** A CSS-safe colour token of the app's palette, or null for the default. */
    colour: text("colour"),
    ...syncedColumns(),
  },
  (t) => [index("tags_account_idx").on(t.accountId)],
);

/** A thing saved as a starting point for new things (spec "Template"). */
export const templates = pgTable(
  "templates",
  {
    id: idColumn(),
    accountId: accountRef(),
    name: text("name").notNull(),
    typeId: uuid("type_id")
      .notNull()
      .references(() => types.id),
    /** The thing's values a new thing starts with (never secret values). */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    /** Locations the template is offered in (1 to 100). */
    locationIds: uuid("location_ids").array().notNull(),
    ...syncedColumns(),
  },
  (t) => [index("templates_account_idx").on(t.accountId)],
);
