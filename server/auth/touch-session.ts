/**
 * A session's last sighting (`last_seen_at`), which the signed-in devices list shows
 * (server/modules/account/sessions.ts): the edge writes it as requests arrive, at most once every
 * few minutes per session.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { authSessions } from "../db/schema/index.js";

/** How stale `last_seen_at` may get before a request writes it again (one write per few minutes). */
const TOUCH_EVERY_MS = 5 * 60_000;

export async function touchSession(db: Db, session: { id: string; lastSeenAt?: Date | null | undefined }, now = new Date()): Promise<void> {
  const seen = session.lastSeenAt ? new Date(session.lastSeenAt).getTime() : 0;
  if (now.getTime() - seen < TOUCH_EVERY_MS) return;
  await db.update(authSessions).set({ lastSeenAt: now }).where(eq(authSessions.id, session.id));
  // The object may be the session cache's copy: keep it in step so the next request skips the write.
  session.lastSeenAt = now;
}
