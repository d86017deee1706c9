/**
 * What each named shape holds (sync/SPEC.md SH1, SH2): its table, its columns with their Postgres
 * types (for `electric-schema`), and the scope condition. The client names a shape; everything
 * else is decided here from the actor.
 */
import { getTableColumns, getTableName, type Table } from "drizzle-orm";
import type { ShapeRows } from "../../../sync/shape-rows.js";
import type { ShapeName } from "../../../sync/shapes.js";
import {
  boxChecks,
  brands,
  codes,
  contacts,
  inboxItems,
  loans,
  moveBoxes,
  moves,
  meters,
  readings,
  locations,
  memberships,
  placeKinds,
  places,
  tags,
  templates,
  things,
  typeFields,
  types,
} from "../../db/schema/index.js";

export interface ShapeColumn {
  name: string;
  /** Postgres type name as Electric reports it (`uuid`, `text`, `int4`, ...); arrays carry dims. */
  type: string;
  dims?: number;
  notNull: boolean;
}

export interface ShapeDef {
  name: ShapeName;
  table: string;
  columns: ShapeColumn[];
  /** Rows of the table that never belong to this actor's shape (skipped in the log too). */
  filter: string;
  /** Rows in the shape; a logged row failing this leaves the shape as a `delete` message. */
  live: string;
  /**
   * What scopes a row: its location (`location_id`), the row itself for the locations shape (`id`),
   * or, for registries, the owner account whose locations the actor reads (`account_id`).
   */
  locationColumn: "location_id" | "id" | "account_id";
}

const TYPE_NAMES: Record<string, string> = {
  PgUUID: "uuid",
  PgText: "text",
  PgInteger: "int4",
  PgBoolean: "bool",
  PgTimestamp: "timestamptz",
  PgNumeric: "numeric",
  PgJsonb: "jsonb",
  PgBigInt53: "int8",
  PgDateString: "date",
};

interface ColumnMeta {
  name: string;
  columnType: string;
  notNull: boolean;
  baseColumn?: { columnType: string };
}

function columnsOf(table: Table): ShapeColumn[] {
  return (Object.values(getTableColumns(table)) as unknown as ColumnMeta[]).map((c) => {
    const isArray = c.columnType === "PgArray";
    const base = isArray && c.baseColumn ? c.baseColumn.columnType : c.columnType;
    const type = TYPE_NAMES[base];
    if (!type) throw new Error(`shape column ${c.name}: no Electric type for ${base}`);
    return { name: c.name, type, ...(isArray ? { dims: 1 } : {}), notNull: c.notNull };
  });
}

const def = (name: ShapeName, table: Table, opts: { filter?: string; live?: string; locationColumn?: ShapeDef["locationColumn"] } = {}): ShapeDef => ({
  name,
  table: getTableName(table),
  columns: columnsOf(table),
  filter: opts.filter ?? "true",
  live: opts.live ?? "r.deleted_at IS NULL",
  locationColumn: opts.locationColumn ?? "location_id",
});

/** The table behind each named shape. */
const TABLES = {
  locations,
  memberships,
  places,
  place_kinds: placeKinds,
  types,
  type_fields: typeFields,
  things,
  brands,
  tags,
  templates,
  inbox: inboxItems,
  meters,
  readings,
  box_checks: boxChecks,
  codes,
  moves,
  move_boxes: moveBoxes,
  contacts,
  loans,
} satisfies Record<ShapeName, Table>;

export const SHAPES: Record<ShapeName, ShapeDef> = {
  locations: def("locations", TABLES.locations, { locationColumn: "id" }),
  // The actor's own memberships only.
  memberships: def("memberships", TABLES.memberships, { filter: "r.user_id = app_user_id()" }),
  places: def("places", TABLES.places),
  place_kinds: def("place_kinds", TABLES.place_kinds, { locationColumn: "account_id" }),
  types: def("types", TABLES.types, { locationColumn: "account_id" }),
  type_fields: def("type_fields", TABLES.type_fields, { locationColumn: "account_id" }),
  things: def("things", TABLES.things),
  brands: def("brands", TABLES.brands, { locationColumn: "account_id" }),
  tags: def("tags", TABLES.tags, { locationColumn: "account_id" }),
  templates: def("templates", TABLES.templates, { locationColumn: "account_id" }),
  // Resolved items leave the inbox shape.
  inbox: def("inbox", TABLES.inbox, { live: "r.deleted_at IS NULL AND r.status = 'open'" }),
  meters: def("meters", TABLES.meters),
  readings: def("readings", TABLES.readings),
  box_checks: def("box_checks", TABLES.box_checks),
  // Printed labels only (claimed or not): a thing's or place's own code is on its row already, and
  // the rows of every auto code would double a first sync for nothing.
  codes: def("codes", TABLES.codes, { filter: "r.sheet_id IS NOT NULL" }),
  // Moves and their boxes: a mover scans boxes offline against these (server/modules/moves/).
  moves: def("moves", TABLES.moves),
  move_boxes: def("move_boxes", TABLES.move_boxes),
  // The owner account's contacts, like a registry; loans by their thing's location (server/modules/loans/).
  contacts: def("contacts", TABLES.contacts, { locationColumn: "account_id" }),
  loans: def("loans", TABLES.loans),
};

/*
 * The row types devices are promised (sync/shape-rows.ts) checked against the tables, at compile
 * time: a column added, dropped or retyped on one side and not the other fails the build below,
 * naming the column.
 */

/** A table row as the Electric client parses it: timestamps arrive as ISO strings. */
type Wire<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };
/** The same type both ways; a jsonb object column may be promised as a narrower object. */
type Fits<W, S> = [S] extends [W] ? (Record<string, unknown> extends W ? true : [W] extends [S] ? true : false) : false;
/** The columns where the table row `W` and the promised row `S` disagree (never when they agree). */
type Mismatches<W, S> = {
  [K in keyof W | keyof S]: K extends keyof W ? (K extends keyof S ? (Fits<W[K], S[K]> extends true ? never : K) : K) : K;
}[keyof W | keyof S];
type Agreement<N extends ShapeName> = [Mismatches<Wire<(typeof TABLES)[N]["$inferSelect"]>, ShapeRows[N]>] extends [never]
  ? true
  : Mismatches<Wire<(typeof TABLES)[N]["$inferSelect"]>, ShapeRows[N]>;

/** Fails to compile, naming the column, where a table and its promised row disagree. */
export const SHAPE_ROWS_AGREE: { [N in ShapeName]: Agreement<N> } = {
  locations: true,
  memberships: true,
  places: true,
  place_kinds: true,
  types: true,
  type_fields: true,
  things: true,
  brands: true,
  tags: true,
  templates: true,
  inbox: true,
  meters: true,
  readings: true,
  box_checks: true,
  codes: true,
  moves: true,
  move_boxes: true,
  contacts: true,
  loans: true,
};
