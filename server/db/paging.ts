/**
 * Keyset cursors of the paged lists (spec conventions 6, shared/paging.ts): `next_cursor` is the
 * sort key of the last row of a page, as JSON in base64url. Clients treat it as opaque; a cursor
 * that does not decode to the key its list gives out is 400 validation_failed, never a database
 * error. Every paged list encodes and decodes its cursors here.
 */
import { and, asc, desc, sql, type AnyColumn, type InferSelectModel, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { z } from "zod";
import { uuidSchema } from "../../shared/ids.js";
import { ValidationError } from "../errors/classes.js";
import type { Tx } from "./client.js";

export const encodeCursor = (key: readonly string[]): string => Buffer.from(JSON.stringify(key)).toString("base64url");

/** The key a cursor holds, checked against `shape` (a tuple of strings). */
export function decodeCursor<T extends readonly string[]>(cursor: string, shape: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString());
  } catch {
    value = undefined;
  }
  const parsed = shape.safeParse(value);
  if (!parsed.success) throw new ValidationError("cursor: not a cursor this list gave out.");
  return parsed.data;
}

/** A text sort key and a row id (things by name). */
export const textIdKey = z.tuple([z.string(), uuidSchema]);

/** A timestamp and a row id: the key of lists ordered by when rows were made. */
const timeIdKey = z.tuple([z.iso.datetime(), uuidSchema]);

/**
 * A timestamptz as the database holds it, to the microsecond (a JS Date keeps milliseconds only,
 * and a cursor that rounds would skip or repeat rows made within the same millisecond).
 */
export const exactTime = (column: AnyColumn | SQL): SQL<string> => sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows after a (time, id) cursor in `order`, for a list ordered by `time` then `id` that way. */
export function afterTimeId(cursor: string, time: AnyColumn, id: AnyColumn, order: "asc" | "desc"): SQL {
  const [at, rowId] = decodeCursor(cursor, timeIdKey);
  return order === "asc" ? sql`(${time}, ${id}) > (${at}::timestamptz, ${rowId}::uuid)` : sql`(${time}, ${id}) < (${at}::timestamptz, ${rowId}::uuid)`;
}

/**
 * One page out of `limit + 1` rows read: the first `limit`, and a cursor to the rest when the
 * extra row showed there is more. `key` is the last row's sort key, as the ORDER BY compares it.
 */
export function pageFrom<R>(rows: R[], limit: number, key: (row: R) => readonly string[]): { rows: R[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, next_cursor: rows.length > limit && last !== undefined ? encodeCursor(key(last)) : null };
}

/** What a paged list is asked: how many rows, and the cursor the last page gave out. */
export interface PageAsk {
  limit: number;
  cursor?: string | undefined;
}

/**
 * A list ordered by (time, id), newest first unless `order` says "asc": the pieces its query takes
 * (the cursor's key column, the condition past the cursor, the ORDER BY and the LIMIT of `limit + 1`)
 * and the page out of the rows it read. Every (time, id) list pages through this one keyset, so a
 * cursor one list gives out means the same thing in all of them.
 */
export function timeIdPaging(time: AnyColumn, id: AnyColumn, ask: PageAsk, order: "asc" | "desc" = "desc") {
  return {
    key: exactTime(time),
    after: ask.cursor ? afterTimeId(ask.cursor, time, id, order) : undefined,
    orderBy: order === "asc" ? [asc(time), asc(id)] : [desc(time), desc(id)],
    limit: ask.limit + 1,
    page: <R extends { key: string }>(rows: R[], idOf: (row: R) => string) => pageFrom(rows, ask.limit, (r) => [r.key, idOf(r)]),
  };
}

/**
 * One page of whole rows of `table` where `where` holds, by (time, id) as timeIdPaging orders them:
 * the lists that read a table's own rows and shape them afterwards.
 */
export async function pageOfRows<T extends PgTable & { id: AnyColumn }>(
  tx: Tx,
  table: T,
  time: AnyColumn,
  where: (SQL | undefined)[],
  ask: PageAsk,
  order: "asc" | "desc" = "desc",
): Promise<{ rows: InferSelectModel<T>[]; next_cursor: string | null }> {
  const paging = timeIdPaging(time, table.id, ask, order);
  // Drizzle cannot infer a selection out of a generic table: read it as any table, and type the row
  // as this table's select model.
  const anyTable: PgTable = table;
  const found = (await tx
    .select({ row: anyTable, key: paging.key })
    .from(anyTable)
    .where(and(...where, paging.after))
    .orderBy(...paging.orderBy)
    .limit(paging.limit)) as unknown as { row: InferSelectModel<T>; key: string }[];
  const page = paging.page(found, (r) => (r.row as { id: string }).id);
  return { rows: page.rows.map((r) => r.row), next_cursor: page.next_cursor };
}
