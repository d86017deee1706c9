/**
 * The plan of a restore: which rows of the zip go in and in what order (see `planTables`). Apart
 * from import-zip.ts, which reads the zip and writes the plan in one transaction.
 */
import { ValidationError } from "../../errors/classes.js";
import type { Catalog, Owner, RefPlan } from "./restore-rows.js";

type Row = Record<string, unknown> & { id: string };

export interface TablePlan {
  refs: Map<string, RefPlan>;
  /** Old ids of the rows to write, one list per depth (a row inside another of its table after it). */
  levels: string[][];
  /** Rows left out. */
  dropped: number;
}

/**
 * Which rows go in, in what order, and how each reference is written: a required reference (NOT
 * NULL) must name a row restored before it, or the row is left out (its thing was not exported);
 * a row inside another of its table (a thing in a box, a place in a place) goes in after it (one
 * `level` per depth); an optional reference to a table written later waits for `fillDeferred`.
 * Rows in `existing` stand for rows the target already has; rows in `absent` are left out (file
 * records whose bytes are not in the zip), and what requires them with them.
 */
export function planTables(
  catalog: Catalog,
  order: string[],
  parsed: Map<string, Row[]>,
  existing: Set<string>,
  absent: Set<string>,
  owner: (t: string) => Owner,
) {
  const kept = new Map<string, Set<string>>();
  const out = new Map<string, TablePlan>();
  for (const [i, t] of order.entries()) {
    const refs = new Map<string, RefPlan>();
    const required: [string, string][] = [];
    let self: string | null = null;
    for (const [c, ref] of catalog.refs.get(t) ?? []) {
      if (c === owner(t).column || !order.includes(ref)) continue;
      if (catalog.notNull.has(`${t}.${c}`)) {
        if (order.indexOf(ref) >= i) throw new Error(`${t}.${c} is a required reference to a table restored after it`);
        required.push([c, ref]);
        refs.set(c, { how: "as-is" });
      } else if (ref === t) {
        if (self) throw new Error(`${t} has two references to itself`);
        self = c;
        refs.set(c, { how: "resolve", ref });
      } else refs.set(c, order.indexOf(ref) > i ? { how: "defer", ref } : { how: "resolve", ref });
    }
    const keep = new Set<string>();
    const list = parsed.get(t)!;
    for (const r of list) if (!existing.has(r.id) && !absent.has(r.id) && required.every(([c, ref]) => kept.get(ref)?.has(r[c] as string))) keep.add(r.id);
    const byId = new Map(list.map((r) => [r.id, r]));
    const depth = new Map<string, number>();
    const depthOf = (id: string, seen: number): number => {
      if (seen > 1000) throw new ValidationError(`records/${t}.json in the zip holds a loop.`);
      const known = depth.get(id);
      if (known !== undefined) return known;
      const parent = self ? (byId.get(id)![self] as string | null) : null;
      const d = parent && keep.has(parent) && parent !== id ? depthOf(parent, seen + 1) + 1 : 0;
      depth.set(id, d);
      return d;
    };
    const levels: string[][] = [];
    for (const id of keep) (levels[depthOf(id, 0)] ??= []).push(id);
    for (const e of existing) if (byId.has(e)) keep.add(e);
    kept.set(t, keep);
    out.set(t, { refs, levels: levels.filter(Boolean), dropped: list.filter((r) => !keep.has(r.id)).length });
  }
  return out;
}
