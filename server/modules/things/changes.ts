/**
 * Collects a segment's thing changes - new rows, their history entries and the ops' verdicts - and
 * writes them in two set-based statements at the end. Keeps update, move and delete to their rules.
 */
import { bulkInsert, bulkUpdate } from "../../commands/bulk.js";
import { historyRow, type FieldClass, type HistoryRow } from "../../commands/history.js";
import { applied, rejected, type CommandContext, type Verdict } from "../../commands/types.js";
import { historyEntries, things } from "../../db/schema/index.js";
import type { AppError } from "../../errors/classes.js";
import type { ThingTarget } from "./values.js";

export interface ThingChange {
  action: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  classes?: Record<string, FieldClass>;
  summaryParams?: Record<string, string>;
  /** Columns changed besides those in `after` (e.g. lastSeenAt on a move). */
  touches?: string[];
}

export class ThingChanges {
  readonly verdicts: Verdict[] = [];
  private readonly rows: ThingTarget[] = [];
  private readonly history: HistoryRow[] = [];
  /** Columns any change of the segment touched; the update sets only these. */
  private readonly columns = new Set(["rowVersion", "updatedAt"]);

  constructor(private readonly ctx: CommandContext) {}

  refuse(error: AppError): void {
    this.verdicts.push(rejected(error));
  }

  /** Records `next` (already carrying its new rowVersion) and its history entry. */
  add(next: ThingTarget, c: ThingChange): void {
    const h = historyRow(this.ctx, {
      locationId: next.locationId,
      entityType: "thing",
      entityId: next.id,
      entityName: next.name,
      action: c.action,
      before: c.before,
      after: c.after,
      ...(c.classes ? { classes: c.classes } : {}),
      summaryKey: c.action,
      summaryParams: c.summaryParams ? { name: next.name ?? "", ...c.summaryParams } : { name: next.name ?? "" },
      rowVersionAfter: next.rowVersion,
      undoable: true,
    });
    for (const key of Object.keys(c.after)) this.columns.add(key.startsWith("fields.") ? "fields" : key);
    if (c.touches) for (const key of c.touches) this.columns.add(key);
    this.rows.push(next);
    this.history.push(h);
    this.verdicts.push(applied(this.ctx, next.id, next.rowVersion, h.id));
  }

  async write(): Promise<Verdict[]> {
    // Both statements go out at once; the second waits on the connection, not on this process.
    await Promise.all([bulkUpdate(this.ctx.tx, things, this.rows, this.columns), bulkInsert(this.ctx.tx, historyEntries, this.history)]);
    return this.verdicts;
  }
}
