/**
 * The rows a segment of ops targets: read and locked in one statement, checked by one rule (the
 * op's location, the tombstone, the rowVersion), and kept current in memory while the segment's
 * ops change them, so that a later op of the segment sees what an earlier one wrote.
 */
import { getTableColumns, type Column } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { lockRows } from "./bulk.js";
import type { CommandContext, Op } from "./types.js";
import { fieldsChangedSince, versionProblem, type ChangedSince } from "./versions.js";
import { type AppError, GoneError, NotFoundError } from "../errors/classes.js";

/** What the check reads of a row; a table without a column simply skips that part. */
export interface TargetRow {
  id: string;
  locationId?: string;
  rowVersion?: number;
  deletedAt?: Date | null;
}

/** The columns the check reads. */
const CHECKED = ["locationId", "rowVersion", "deletedAt"] as const;

export interface TargetRule<R extends TargetRow> {
  /** Names the entity in NotFoundError and GoneError ("thing", "place", ...). */
  entity: string;
  /** The location a row belongs to, when it is not `locationId` (a location is its own). */
  locationOf?: (row: R) => string | undefined;
  /**
   * A tombstoned row answers 410 gone, unless the API never shows that entity's tombstones
   * (locations, inbox items): then it is simply not found, as it always was.
   */
  tombstone?: "gone" | "not-found";
}

export interface TargetCheck<R> {
  /** The fields the op changes, for the field-level merge of pushed ops; "all" is strict. */
  fields?: readonly string[] | "all";
  /**
   * A check of the command's own (a role, a state) that outranks a version conflict: a stale op
   * that could never apply is answered with why, not with a version to retry from.
   */
  also?: (row: R) => AppError | null;
}

export class Targets<R extends TargetRow> {
  /**
   * `rows` by the key ops find them by (the id, unless the command says otherwise); `changedSince`
   * holds, for stale ops, what changed after their baseVersion. For pushed ops (`device`), the
   * versions the rows had when locked tell this batch's own changes from everyone else's (VE8).
   */
  private readonly locked = new Map<string, number>();

  constructor(
    private readonly rule: TargetRule<R>,
    private readonly rows: Map<string, R>,
    private readonly changedSince: ReadonlyMap<string, ChangedSince> = new Map(),
    private readonly device = false,
  ) {
    for (const row of rows.values()) if (row.rowVersion !== undefined) this.locked.set(row.id, row.rowVersion);
  }

  get(key: string): R | undefined {
    return this.rows.get(key);
  }

  /** The row as an op of the segment left it: later ops check and change this state. */
  set(row: R, key: string = row.id): void {
    this.rows.set(key, row);
  }

  values(): IterableIterator<R> {
    return this.rows.values();
  }

  /** Null when `op` may change `row`; otherwise the error to answer it with. */
  problem(op: Op<unknown>, row: R | undefined, check: TargetCheck<R> = {}): AppError | null {
    const { entity, locationOf, tombstone = "gone" } = this.rule;
    if (!row || (locationOf ? locationOf(row) : row.locationId) !== op.input.locationId) return new NotFoundError(entity);
    if (row.deletedAt) return tombstone === "gone" ? new GoneError(entity) : new NotFoundError(entity);
    const own = check.also?.(row);
    if (own) return own;
    if (row.rowVersion === undefined) return null;
    const device = this.device ? { locked: this.locked.get(row.id) ?? 0 } : undefined;
    return versionProblem(op, { id: row.id, rowVersion: row.rowVersion }, check.fields ?? "all", this.changedSince, device);
  }
}

/**
 * Locks the ops' targets (FOR UPDATE, one statement, only `keys` besides the id) and, for pushed
 * ops with an older baseVersion, reads which fields changed since (`entityType` in history).
 */
export async function lockTargets<T extends PgTable & { id: Column }, K extends keyof T["$inferSelect"] & string>(
  ctx: CommandContext,
  table: T,
  rule: TargetRule<Pick<T["$inferSelect"], K | "id"> & TargetRow> & { entityType?: string },
  ops: Op<{ id: string }>[],
  keys: readonly K[],
): Promise<Targets<Pick<T["$inferSelect"], K | "id"> & TargetRow>> {
  type R = Pick<T["$inferSelect"], K | "id"> & TargetRow;
  // The check skips what a row lacks: its columns are read whenever the table has them, so that a
  // command cannot drop the tombstone or version check by leaving a key out.
  const columns = getTableColumns(table);
  const checked = CHECKED.filter((k) => k in columns && !(keys as readonly string[]).includes(k)) as K[];
  const found = (await lockRows(
    ctx.tx,
    table,
    ops.map((o) => o.args.id),
    checked.length ? [...keys, ...checked] : keys,
  )) as R[];
  const rows = new Map(found.map((r) => [r.id, r]));
  // Only tables with a rowVersion name an entityType: their rows are what fieldsChangedSince reads.
  const changed = rule.entityType ? await fieldsChangedSince(ctx, rule.entityType, ops, rows as Map<string, R & { rowVersion: number }>) : undefined;
  return new Targets<R>(rule, rows, changed, ctx.clientId !== undefined);
}
