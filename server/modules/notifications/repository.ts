/**
 * The SQL of a person's push subscriptions. The service runs these with its own authority (no
 * actor transaction), always narrowed to the person's own rows by user id.
 */
import { and, eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { Queryable } from "../../db/client.js";
import { pushSubscriptions } from "../../db/schema/index.js";

type Insert = typeof pushSubscriptions.$inferInsert;
export type SubscriptionFields = Pick<Insert, "p256dh" | "auth"> & { label: string | null; lang: NonNullable<Insert["lang"]> };

/** Adds a subscription, or renews the row the same browser (same endpoint) made before; answers its id. */
export async function saveSubscription(q: Queryable, userId: string, endpoint: string, fields: SubscriptionFields, now: Date): Promise<string> {
  const row = { ...fields, updatedAt: now };
  const [saved] = await q
    .insert(pushSubscriptions)
    .values({ id: uuidv7(), userId, endpoint, ...row, createdAt: now })
    .onConflictDoUpdate({ target: [pushSubscriptions.userId, pushSubscriptions.endpoint], set: row })
    .returning({ id: pushSubscriptions.id });
  return saved!.id;
}

/** Deletes one of the person's subscriptions; false when they have none with this id. */
export async function deleteSubscription(q: Queryable, userId: string, id: string): Promise<boolean> {
  const gone = await q
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  return gone.length > 0;
}
