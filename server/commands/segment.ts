/**
 * A segment's writes, collected while its ops are checked in order and sent set-based at the end:
 * per table one insert of the new rows and one update of the changed rows, one insert of the
 * history entries, and one verdict per op in op order. However many ops the segment holds, it
 * costs the same few statements.
 */
import type { Table } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { bulkInsert, bulkUpdate } from "./bulk.js";
import { historyRow, pick, type HistoryDraft, type HistoryRow } from "./history.js";
import { applied, rejected, type CommandContext, type Verdict } from "./types.js";
import { historyEntries } from "../db/schema/index.js";
import type { AppError } from "../errors/classes.js";

type Row = Record<string, unknown> & { id: string };

/** A history entry as `created` and `changed` take it: its version comes from the row, its summary key defaults to the action. */
export type RowEvent = Omit<HistoryDraft, "rowVersionAfter" | "summaryKey"> & { summaryKey?: string };

/** How the history entries of a command's edits name their row: `<entityType>.<verb>`, with the row's name in the summary. */
export interface EntityNaming<R> {
  entityType: string;
  nameOf: (row: R) => string | null;
  undoable: boolean;
}

interface Updates {
  /** By id: a row changed by two ops of the segment is written once, in its last state. */
  rows: Map<string, Row>;
  /** Every column any op changed: the one statement sets these in each row. */
  columns: Set<string>;
}

export class SegmentChanges {
  readonly verdicts: Verdict[] = [];
  private readonly inserts = new Map<Table, Row[]>();
  private readonly history: HistoryRow[] = [];
  private readonly updates = new Map<Table, Updates>();

  constructor(private readonly ctx: CommandContext) {}

  refuse(error: AppError): void {
    this.verdicts.push(rejected(error));
  }

  /**
   * The step after a target check (Targets.problem and the command's own): a `problem` is the op's
   * verdict, and true says the op stops there; false says it goes on with `row`, which the check
   * found. (The check answers an error whenever the row is missing, so no row and no problem is a
   * programming error.)
   */
  refused<R>(problem: AppError | null, row: R | undefined): row is undefined {
    if (problem) {
      this.refuse(problem);
      return true;
    }
    if (row === undefined) throw new Error("a target check found no row but named no problem");
    return false;
  }

  applied(entityId: string, rowVersion: number, eventId: string | null): void {
    this.verdicts.push(applied(this.ctx, entityId, rowVersion, eventId));
  }

  insert<T extends PgTable>(table: T, row: T["$inferInsert"] & { id: string }): void {
    const rows = this.inserts.get(table);
    if (rows) rows.push(row);
    else this.inserts.set(table, [row]);
  }

  /**
   * `row` (its whole state as the segment knows it) replaces the row of its id; `columns` are those
   * this change set. The row must hold every column any change of the table sets, since the one
   * update writes them all: write() refuses a row loaded without one rather than null it.
   */
  update<T extends PgTable>(table: T, row: Partial<T["$inferSelect"]> & { id: string }, columns: Iterable<keyof T["$inferSelect"] & string>): void {
    let u = this.updates.get(table);
    if (!u) this.updates.set(table, (u = { rows: new Map(), columns: new Set() }));
    u.rows.set(row.id, row);
    // A command that must not bump versions (CommandDef.bumpsVersion) never writes one.
    for (const c of columns) if (this.ctx.bumpsVersion !== false || c !== "rowVersion") u.columns.add(c);
  }

  /** Adds the history entry of a change; answers its id, the verdict's eventId. */
  record(draft: HistoryDraft): string {
    const h = historyRow(this.ctx, draft);
    this.history.push(h);
    return h.id;
  }

  /**
   * What most ops do, in one call: insert `row`, record its history entry, answer the op applied.
   * The verdict names `event.entityId`; the entry's version is the row's.
   */
  created<T extends PgTable>(table: T, row: T["$inferInsert"] & { id: string; rowVersion: number }, event: RowEvent): string {
    this.insert(table, row);
    return this.recordApplied(row.rowVersion, event);
  }

  /** As `created`, for a changed row: `row` in its new state replaces the old, setting `columns`. */
  changed<T extends PgTable>(
    table: T,
    row: Partial<T["$inferSelect"]> & { id: string; rowVersion: number },
    columns: Iterable<keyof T["$inferSelect"] & string>,
    event: RowEvent,
  ): string {
    this.update(table, row, columns);
    return this.recordApplied(row.rowVersion, event);
  }

  /**
   * A tombstone (nothing is hard-deleted): `target` gets `deletedAt` now and a new version, with
   * its history entry and the applied verdict. Answers the row in its new state, for the
   * segment's later ops to see.
   */
  tombstoned<T extends PgTable, R extends Partial<T["$inferSelect"]> & { id: string; rowVersion: number }>(
    table: T,
    target: R,
    event: Omit<RowEvent, "entityId" | "before" | "after">,
  ): R & { deletedAt: Date; updatedAt: Date } {
    const now = this.ctx.now;
    const next = { ...target, deletedAt: now, rowVersion: target.rowVersion + 1, updatedAt: now };
    this.changed(table, next, ["deletedAt", "rowVersion", "updatedAt"] as (keyof T["$inferSelect"] & string)[], {
      ...event,
      entityId: target.id,
      before: { deletedAt: null },
      after: { deletedAt: now.toISOString() },
    });
    return next;
  }

  /**
   * An edit of the columns in `patch`: `target` gets them, a new version and updatedAt now, with
   * its history entry (`<entityType>.<verb>`, those columns before and after, named as the row
   * is after) and the applied verdict. Answers the row in its new state, for the segment's later ops to see.
   */
  patched<T extends PgTable, R extends Partial<T["$inferSelect"]> & { id: string; rowVersion: number }>(
    table: T,
    target: R,
    patch: Partial<R>,
    locationId: string,
    { entityType, nameOf, undoable }: EntityNaming<R>,
    verb = "updated",
  ): R {
    const keys = Object.keys(patch) as (keyof T["$inferSelect"] & string)[];
    const next: R = { ...target, ...patch, rowVersion: target.rowVersion + 1, updatedAt: this.ctx.now };
    const name = nameOf(next);
    this.changed(table, next, [...keys, "rowVersion", "updatedAt"] as (keyof T["$inferSelect"] & string)[], {
      locationId,
      entityType,
      entityId: target.id,
      entityName: name,
      action: `${entityType}.${verb}`,
      before: pick(target, keys),
      after: pick(next, keys),
      summaryParams: { name: name ?? "" },
      undoable,
    });
    return next;
  }

  private recordApplied(rowVersion: number, { summaryKey, ...event }: RowEvent): string {
    const eventId = this.record({ ...event, summaryKey: summaryKey ?? event.action, rowVersionAfter: rowVersion });
    this.applied(event.entityId, rowVersion, eventId);
    return eventId;
  }

  /**
   * Sends every statement, then answers the verdicts. Order matters under row-level security:
   * new rows first (history may be about them), then history, then updates, since an update may
   * take away the right to write history (a member who leaves no longer passes its policy).
   * The statements go out together; each waits on the connection, not on this process.
   */
  async write(): Promise<Verdict[]> {
    const tx = this.ctx.tx;
    // Checked before anything is sent, so that no statement is left running unawaited.
    const updates = [...this.updates].map(([table, { rows, columns }]) => {
      const values = [...rows.values()];
      for (const row of values) for (const c of columns) if (!(c in row)) throw new Error(`update of ${row.id} lacks the column ${c}`);
      return { table, values, columns };
    });
    const sent: Promise<void>[] = [];
    for (const [table, rows] of this.inserts) sent.push(bulkInsert(tx, table, rows));
    sent.push(bulkInsert(tx, historyEntries, this.history));
    for (const { table, values, columns } of updates) sent.push(bulkUpdate(tx, table, values, columns));
    await Promise.all(sent);
    return this.verdicts;
  }
}
