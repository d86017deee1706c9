/** The SQL of a person's first-use hints, on an open actor transaction (RLS: their own rows only). */
import { and, count, eq } from "drizzle-orm";
import type { Hint } from "../../../shared/hints.js";
import type { Tx } from "../../db/client.js";
import { userHints } from "../../db/schema/index.js";

type Row = typeof userHints.$inferSelect;
type Stamps = Pick<Row, "seenAt" | "dismissedAt" | "updatedAt">;

export const hintOut = (r: Row): Hint => ({ key: r.key, seen: r.seenAt !== null, dismissed: r.dismissedAt !== null, updatedAt: r.updatedAt.toISOString() });

const mine = (userId: string, key: string) => and(eq(userHints.userId, userId), eq(userHints.key, key));

export async function hintsOf(tx: Tx, userId: string): Promise<Hint[]> {
  return (await tx.select().from(userHints).where(eq(userHints.userId, userId)).orderBy(userHints.key)).map(hintOut);
}

/** The person's hint under this key, locked until the transaction ends; null when they keep none. */
export async function lockHint(tx: Tx, userId: string, key: string): Promise<Row | null> {
  const [existing] = await tx.select().from(userHints).where(mine(userId, key)).for("update");
  return existing ?? null;
}

export async function hintCount(tx: Tx, userId: string): Promise<number> {
  const [held] = await tx.select({ n: count() }).from(userHints).where(eq(userHints.userId, userId));
  return held?.n ?? 0;
}

/** Writes the hint's stamps, making its row if need be. */
export async function saveHint(tx: Tx, userId: string, key: string, next: Stamps): Promise<Hint> {
  const [row] = await tx
    .insert(userHints)
    .values({ userId, key, ...next })
    .onConflictDoUpdate({ target: [userHints.userId, userHints.key], set: next })
    .returning();
  return hintOut(row!);
}

export async function updateHint(tx: Tx, userId: string, key: string, next: Stamps): Promise<Hint> {
  const [row] = await tx.update(userHints).set(next).where(mine(userId, key)).returning();
  return hintOut(row!);
}
