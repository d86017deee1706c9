/**
 * A session's re-authentication stamp (reauth.ts reads it), on its own so both ways of setting it
 * can import it: the password (reauth.ts) and a passkey that verified the person on this session
 * (passkeys.ts), which is the way in for an account without a password.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { authSessions } from "../db/schema/index.js";

/** How long a re-authentication lets the recovery kit and an email change through. */
export const REAUTH_WINDOW_MS = 5 * 60_000;

/** Marks the session re-authenticated now; answers until when that holds. */
export async function stampReauthenticated(db: Db, sessionId: string, now: Date): Promise<Date> {
  await db.update(authSessions).set({ reauthenticatedAt: now }).where(eq(authSessions.id, sessionId));
  return new Date(now.getTime() + REAUTH_WINDOW_MS);
}
