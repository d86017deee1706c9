/** Reads of file records: the response shape and one record. */
import { eq } from "drizzle-orm";
import type { FileRecord } from "../../../shared/files.js";
import type { Tx } from "../../db/client.js";
import { files } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";

/** Where a file is downloaded; every record that shows a photo or a proof links it through this. */
export const fileUrl = (id: string): string => `/api/v1/files/${id}`;
/** No thumbnails are made yet: a thumbnail is the original, which clients scale. */
export const thumbUrl = fileUrl;

export const fileOut = (f: typeof files.$inferSelect): FileRecord => ({
  id: f.id,
  locationId: f.locationId,
  mime: f.mime as FileRecord["mime"],
  size: f.size,
  url: fileUrl(f.id),
  thumbUrl: thumbUrl(f.id),
});

/** A visible, live file record, or 404 whether it is absent, deleted or in a location the actor cannot see. */
export async function findFile(tx: Tx, id: string) {
  const [f] = await tx.select().from(files).where(eq(files.id, id));
  if (!f || f.deletedAt) throw new NotFoundError("file");
  return f;
}
