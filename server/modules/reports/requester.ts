/**
 * The person who asked for a report or an export, as a read-only actor for the background job:
 * row-level security and their role in the location decide what the PDF holds, as when they read
 * it themselves. The request passed the two-factor check, so the proof carries over.
 */
import { type Actor, asSystem } from "../../db/actor.js";
import { rows, sql, type Db } from "../../db/client.js";

export async function requesterOf(db: Db, userId: string): Promise<{ actor: Actor; email: string | null }> {
  const [user] = await asSystem(db, (tx) => rows<{ name: string; email: string }>(tx, sql`SELECT name, email FROM users WHERE id = ${userId}`));
  return {
    actor: { type: "user", userId, displayName: user?.name ?? "", mfaProven: true, locationScope: null, canWrite: false },
    email: user?.email ?? null,
  };
}
