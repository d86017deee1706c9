/**
 * The walks along the two trees of the schema: places by `parent_id`, things inside containers by
 * `container_id`. The queries that climb from rows to their roots, or count what rows hold, take
 * their recursive clause from here, so the walk and its depth guard (64, as moves and place edits
 * check a chain) are written once; each step is a lookup by the primary key (up) or by the parent
 * column's index (down), as the queries had it.
 */
import { sql, type SQL } from "drizzle-orm";
import { rows, uuidArray, type Tx } from "./client.js";

const TREES = {
  places: { table: sql.raw("places"), parent: sql.raw("parent_id") },
  things: { table: sql.raw("things"), parent: sql.raw("container_id") },
} as const;

export type Tree = keyof typeof TREES;

/** The deepest a chain is walked; a longer one (bad data, a cycle) stops there. */
export const TREE_DEPTH = 64;

/**
 * `WITH RECURSIVE up(start, id, parent, depth)`: each row where `anchor` holds (a condition on
 * alias `n`) at depth 0 as its own `start`, then each of its ancestors, to the root. A query
 * follows it with its own SELECT from `up`.
 */
export function walkUp(tree: Tree, anchor: SQL): SQL {
  const { table, parent } = TREES[tree];
  return sql`WITH RECURSIVE up(start, id, parent, depth) AS (
      SELECT n.id, n.id, n.${parent}, 0 FROM ${table} n WHERE ${anchor}
      UNION ALL
      SELECT up.start, n.id, n.${parent}, up.depth + 1 FROM ${table} n JOIN up ON n.id = up.parent WHERE up.depth < ${sql.raw(String(TREE_DEPTH))}
    )`;
}

/**
 * `WITH RECURSIVE down(root, id, depth)`: each row where `anchor` holds (a condition on alias `n`)
 * at depth 0 as its own `root`, then everything under it at any depth (deleted rows included:
 * the query filters what it counts). A query follows it with its own SELECT from `down`.
 */
export function walkDown(tree: Tree, anchor: SQL): SQL {
  const { table, parent } = TREES[tree];
  return sql`WITH RECURSIVE down(root, id, depth) AS (
      SELECT n.id, n.id, 0 FROM ${table} n WHERE ${anchor}
      UNION ALL
      SELECT d.root, c.id, d.depth + 1 FROM ${table} c JOIN down d ON c.${parent} = d.id WHERE d.depth < ${sql.raw(String(TREE_DEPTH))}
    )`;
}

/** Each of `ids` with the ids of its chain, itself included (a place and the places above it, a box and the boxes holding it). */
export async function chainsOf(tx: Tx, tree: Tree, ids: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (!ids.length) return out;
  const found = await rows<{ start: string; id: string }>(tx, sql`${walkUp(tree, sql`n.id = ANY(${uuidArray(ids)})`)} SELECT start, id FROM up`);
  for (const r of found) out.set(r.start, (out.get(r.start) ?? new Set()).add(r.id));
  return out;
}
