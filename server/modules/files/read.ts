/** Reads of file records: the response shape and one record. */
import { eq } from "drizzle-orm";
import { fileUrl, THUMBNAIL_MIMES, thumbUrl, type FileRecord } from "../../../shared/files.js";
import type { Tx } from "../../db/client.js";
import { files } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";

/**
 * The one pair of URL helpers (shared with the app): things, inbox items and meter proofs link a
 * photo's thumbnail through `thumbUrl`, made on its first request (./thumbs.ts).
 */
export { fileUrl, thumbUrl };

export const fileOut = (f: typeof files.$inferSelect): FileRecord => ({
  id: f.id,
  locationId: f.locationId,
  mime: f.mime as FileRecord["mime"],
  size: f.size,
  url: fileUrl(f.id),
  thumbUrl: (THUMBNAIL_MIMES as readonly string[]).includes(f.mime) ? thumbUrl(f.id) : null,
});

/** A visible, live file record, or 404 whether it is absent, deleted or in a location the actor cannot see. */
export async function findFile(tx: Tx, id: string) {
  const [f] = await tx.select().from(files).where(eq(files.id, id));
  if (!f || f.deletedAt) throw new NotFoundError("file");
  return f;
}
