/**
 * rowVersion checks (sync/SPEC.md VE2-VE6). A stale op may still apply when none of the fields it
 * changes were changed since the version it saw; the fields changed since come from history.
 */
import type { CommandContext, Op } from "./types.js";
import { rows, sql } from "../db/client.js";
import { VersionConflictError } from "../errors/classes.js";

/** For each target whose op carries an older baseVersion, the fields changed after that version. */
export async function fieldsChangedSince(
  ctx: CommandContext,
  entityType: string,
  ops: Op<{ id: string }>[],
  current: ReadonlyMap<string, { rowVersion: number }>,
): Promise<Map<string, Set<string>>> {
  const stale = ops
    .filter((o) => o.input.merge && o.input.baseVersion !== undefined && o.input.baseVersion < (current.get(o.args.id)?.rowVersion ?? 0))
    .map((o) => ({ id: o.args.id, base: o.input.baseVersion }));
  const out = new Map<string, Set<string>>();
  if (!stale.length) return out;
  const found = await rows<{ id: string; field: string }>(
    ctx.tx,
    sql`SELECT DISTINCT h.entity_id AS id, k.field
        FROM jsonb_to_recordset(${JSON.stringify(stale)}::jsonb) AS o(id uuid, base int)
        JOIN history_entries h ON h.entity_type = ${entityType} AND h.entity_id = o.id AND h.row_version_after > o.base
        CROSS JOIN LATERAL jsonb_object_keys(h.after) AS k(field)`,
  );
  for (const r of found) out.set(r.id, (out.get(r.id) ?? new Set()).add(r.field));
  return out;
}

/** Null when the op may apply to `target` changing `fields`; otherwise the conflict. */
export function versionProblem(
  op: Pick<Op<unknown>, "input">,
  target: { id: string; rowVersion: number },
  fields: readonly string[] | "all",
  changedSince: ReadonlyMap<string, Set<string>>,
): VersionConflictError | null {
  const base = op.input.baseVersion;
  if (base === undefined || base === target.rowVersion) return null;
  if (op.input.merge && fields !== "all" && base < target.rowVersion) {
    const since = changedSince.get(target.id) ?? new Set<string>();
    const overlap = fields.filter((f) => since.has(f));
    if (!overlap.length) return null;
    return new VersionConflictError(target.rowVersion, { overlap });
  }
  return new VersionConflictError(target.rowVersion);
}
