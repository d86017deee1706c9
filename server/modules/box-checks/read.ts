/** Reads of box checks: the spec's record (counts of each list) and a thing's checks, newest first. */
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { BoxCheck } from "../../../shared/box-checks.js";
import type { Tx } from "../../db/client.js";
import { boxChecks, users } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { pageOfRows } from "../../db/paging.js";

type Row = typeof boxChecks.$inferSelect;

export async function boxChecksOut(tx: Tx, rowsIn: Row[]): Promise<BoxCheck[]> {
  const userIds = [...new Set(rowsIn.map((r) => r.byUserId).filter((x): x is string => !!x))];
  const names = new Map(
    userIds.length ? (await tx.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds))).map((u) => [u.id, u.name]) : [],
  );
  return rowsIn.map((r) => ({
    id: r.id,
    containerId: r.containerId,
    at: r.at.toISOString(),
    by: { displayName: (r.byUserId && names.get(r.byUserId)) || "Former member" },
    seen: r.seen.length,
    notHere: r.notHere.length,
    split: r.split.length,
    movedIn: r.movedIn.length,
  }));
}

/** A visible box check, or 404. */
export async function findBoxCheck(tx: Tx, id: string): Promise<BoxCheck> {
  const [row] = await tx
    .select()
    .from(boxChecks)
    .where(and(eq(boxChecks.id, id), isNull(boxChecks.deletedAt)));
  if (!row) throw new NotFoundError("box check");
  return (await boxChecksOut(tx, [row]))[0]!;
}

/**
 * The checks of a thing, newest `at` first: those of it as a box, and those that named it in one
 * of their lists (a box on a shelf-box shows both its own checks and the shelf's that saw it).
 */
export async function thingBoxChecks(tx: Tx, thing: { id: string; locationId: string }, q: { limit: number; cursor?: string | undefined }) {
  const thingId = thing.id;
  const id = sql`${thingId}::uuid`;
  const where = [
    eq(boxChecks.locationId, thing.locationId),
    isNull(boxChecks.deletedAt),
    or(
      eq(boxChecks.containerId, thingId),
      sql`${id} = ANY(${boxChecks.seen})`,
      sql`${id} = ANY(${boxChecks.notHere})`,
      sql`${id} = ANY(${boxChecks.movedIn})`,
      sql`${boxChecks.split} @> ${JSON.stringify([{ thingId }])}::jsonb`,
    ),
  ];
  const page = await pageOfRows(tx, boxChecks, boxChecks.at, where, q);
  return { items: await boxChecksOut(tx, page.rows), next_cursor: page.next_cursor };
}
