/**
 * rowVersion checks (sync/SPEC.md VE2-VE8). A stale op may still apply when none of the fields it
 * changes were changed since the version it saw; the fields changed since come from history.
 * Changes the pushing device made itself do not count (VE8): offline, a person who renames a
 * thing twice sends both renames with the version the device last saw.
 */
import type { CommandContext, Op } from "./types.js";
import { rows, sql } from "../db/client.js";
import { VersionConflictError } from "../errors/classes.js";

/** What changed on a row after an op's baseVersion, as far as the op's check is concerned. */
export interface ChangedSince {
  /** Fields changed by anyone but the pushing device. */
  fields: Set<string>;
  /** Every version after the op's base, up to the version locked, was made by the pushing device. */
  allOwn: boolean;
}

/** For each target whose op carries an older baseVersion, what changed after that version. */
export async function fieldsChangedSince(
  ctx: CommandContext,
  entityType: string,
  ops: Op<{ id: string }>[],
  current: ReadonlyMap<string, { rowVersion: number }>,
): Promise<Map<string, ChangedSince>> {
  const stale = ops
    .filter((o) => o.input.baseVersion !== undefined && o.input.baseVersion < (current.get(o.args.id)?.rowVersion ?? 0))
    .filter((o) => o.input.merge || ctx.clientId !== undefined)
    .map((o) => ({ id: o.args.id, base: o.input.baseVersion }));
  const out = new Map<string, ChangedSince>();
  if (!stale.length) return out;
  const own = ctx.clientId === undefined ? sql`false` : sql`(h.client_id = ${ctx.clientId} AND h.actor_user_id = ${ctx.actor.userId}::uuid)`;
  const found = await rows<{ id: string; base: number; field: string | null; own: boolean; version: number }>(
    ctx.tx,
    sql`SELECT DISTINCT h.entity_id AS id, o.base, k.field, ${own} AS own, h.row_version_after AS version
        FROM jsonb_to_recordset(${JSON.stringify(stale)}::jsonb) AS o(id uuid, base int)
        JOIN history_entries h ON h.entity_type = ${entityType} AND h.entity_id = o.id AND h.row_version_after > o.base
        LEFT JOIN LATERAL jsonb_object_keys(h.after) AS k(field) ON true`,
  );
  const ownVersions = new Map<string, Set<number>>();
  for (const r of found) {
    const since = out.get(r.id) ?? { fields: new Set<string>(), allOwn: false };
    out.set(r.id, since);
    if (r.own) ownVersions.set(r.id, (ownVersions.get(r.id) ?? new Set()).add(r.version));
    else if (r.field !== null) since.fields.add(r.field);
  }
  for (const { id, base } of stale) {
    const since = out.get(id) ?? { fields: new Set<string>(), allOwn: false };
    out.set(id, since);
    // Every version in (base, locked] has an entry of the device's own: nobody else came between.
    since.allOwn = ctx.clientId !== undefined && (ownVersions.get(id)?.size ?? 0) === (current.get(id)?.rowVersion ?? 0) - (base ?? 0);
  }
  return out;
}

/**
 * Null when the op may apply to `target` changing `fields`; otherwise the conflict. `locked` is
 * the row's version when the segment locked it: versions above it were made by this batch's own
 * earlier ops, so for a pushed op (which has a device) they are the device's own too.
 */
export function versionProblem(
  op: Pick<Op<unknown>, "input">,
  target: { id: string; rowVersion: number },
  fields: readonly string[] | "all",
  changedSince: ReadonlyMap<string, ChangedSince>,
  own?: { locked: number },
): VersionConflictError | null {
  const base = op.input.baseVersion;
  if (base === undefined || base === target.rowVersion) return null;
  if (base < target.rowVersion && own) {
    // Only this batch changed the row after the base, or every change up to the lock was the device's own.
    if (base >= own.locked || changedSince.get(target.id)?.allOwn) return null;
  }
  if (op.input.merge && fields !== "all" && base < target.rowVersion) {
    const since = changedSince.get(target.id)?.fields ?? new Set<string>();
    const overlap = fields.filter((f) => since.has(f));
    if (!overlap.length) return null;
    return new VersionConflictError(target.rowVersion, { overlap });
  }
  return new VersionConflictError(target.rowVersion);
}
