/**
 * What each named shape holds (sync/SPEC.md SH1, SH2): its table, its columns with their Postgres
 * types (for `electric-schema`), and the scope condition. The client names a shape; everything
 * else is decided here from the actor.
 */
import { getTableColumns, getTableName, type Table } from "drizzle-orm";
import type { ShapeName } from "../../../sync/shapes.js";
import { brands, inboxItems, locations, memberships, placeKinds, places, things, typeFields, types } from "../../db/schema/index.js";

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
  /** True for the one shape keyed by the row's own id rather than location_id. */
  locationColumn: "location_id" | "id";
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

export const SHAPES: Record<ShapeName, ShapeDef> = {
  locations: def("locations", locations, { locationColumn: "id" }),
  // The actor's own memberships only.
  memberships: def("memberships", memberships, { filter: "r.user_id = app_user_id()" }),
  places: def("places", places),
  place_kinds: def("place_kinds", placeKinds),
  types: def("types", types),
  type_fields: def("type_fields", typeFields),
  things: def("things", things),
  brands: def("brands", brands),
  // Resolved items leave the inbox shape.
  inbox: def("inbox", inboxItems, { live: "r.deleted_at IS NULL AND r.status = 'open'" }),
};
