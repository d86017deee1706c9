/** The SQL of a person's capture settings, on an open actor transaction (RLS: their own rows only). */
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { captureSettings } from "../../db/schema/index.js";

const mine = (userId: string, locationId: string) => and(eq(captureSettings.userId, userId), eq(captureSettings.locationId, locationId));

/** Whether the person's captures in this location go straight in; false until they say so. */
export async function straightInOf(tx: Tx, userId: string, locationId: string): Promise<boolean> {
  const [row] = await tx.select({ straightIn: captureSettings.straightIn }).from(captureSettings).where(mine(userId, locationId));
  return row?.straightIn ?? false;
}

/** Writes the setting, making the row if need be; answers it as stored. */
export async function saveStraightIn(tx: Tx, userId: string, locationId: string, straightIn: boolean, now: Date): Promise<boolean> {
  const set = { straightIn, updatedAt: now };
  const [row] = await tx
    .insert(captureSettings)
    .values({ userId, locationId, ...set })
    .onConflictDoUpdate({ target: [captureSettings.userId, captureSettings.locationId], set })
    .returning({ straightIn: captureSettings.straightIn });
  return row!.straightIn;
}
