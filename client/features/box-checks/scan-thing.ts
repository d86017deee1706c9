/** Which thing a photo of a label names, found on the device (a box check works with no network). */
import { classifyScan } from "../../../shared/codes.js";
import type { InventoryDb } from "../../db/database.js";
import { resolveCodeLocally } from "../../sync/field-ops.js";
import { decodeImage } from "../scan/decode.js";

/** The thing's id, or whether the photo held no code at all (`unread`) or none of a thing here. */
export async function scannedThing(db: InventoryDb, file: File): Promise<{ id: string } | { missing: "unread" | "none" }> {
  const d = await decodeImage(file);
  if (!d) return { missing: "unread" };
  const read = classifyScan(d.text, d.format);
  const hit = read.type === "code" ? await resolveCodeLocally(db, read.code) : null;
  return hit?.outcome === "open" && hit.target.kind === "thing" ? { id: hit.target.id } : { missing: "none" };
}
