/** Extractions for routes: a thing's list, and a re-run a person asks for (members and up). */
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { ExtractionRecord, extractionStartBody } from "../../../shared/extractions.js";
import { locationAccess } from "../../access/location.js";
import { writeRefusal } from "../../access/may-write.js";
import { type Actor, withActor } from "../../db/actor.js";
import { sql } from "../../db/client.js";
import { extractions, files } from "../../db/schema/index.js";
import { NotFoundError, ValidationError } from "../../errors/classes.js";
import type { ServiceDeps } from "../deps.js";
import { findThing } from "../things/read.js";
import { queueExtractions } from "../../ai/extraction-queue.js";
import { extractionOut, thingExtractions } from "./read.js";

export function listExtractions({ db }: ServiceDeps, actor: Actor, thingId: string): Promise<{ items: ExtractionRecord[] }> {
  return withActor(db, actor, async (tx) => {
    const thing = await findThing(tx, thingId);
    return { items: await thingExtractions(tx, thing.id, actor.userId) };
  });
}

/**
 * The photos a re-run reads when none are named: the thing's photos (its gallery, cover first), else
 * those of its latest run, else the photos its capture brought.
 */
async function photosOf(
  tx: Parameters<Parameters<typeof withActor>[2]>[0],
  thing: { id: string; coverFileId: string | null; photoFileIds: string[] },
): Promise<string[]> {
  if (thing.photoFileIds.length) return [...new Set([...(thing.coverFileId ? [thing.coverFileId] : []), ...thing.photoFileIds])];
  const [last] = await tx
    .select({ fileIds: extractions.fileIds })
    .from(extractions)
    .where(eq(extractions.thingId, thing.id))
    .orderBy(sql`created_at DESC`)
    .limit(1);
  if (last?.fileIds.length) return last.fileIds;
  const captured = await tx.execute(
    sql`SELECT p->>'fileId' AS id FROM inbox_items i, jsonb_array_elements(i.payload->'photos') p WHERE i.thing_id = ${thing.id} AND i.kind = 'draft'`,
  );
  const ids = (captured as { rows: { id: string }[] }).rows.map((r) => r.id);
  return [...new Set([...(thing.coverFileId ? [thing.coverFileId] : []), ...ids])];
}

export function startExtraction({ db }: ServiceDeps, actor: Actor, thingId: string, body: z.infer<typeof extractionStartBody>): Promise<ExtractionRecord> {
  return withActor(db, actor, async (tx) => {
    const thing = await findThing(tx, thingId);
    const { role } = await locationAccess(tx, thing.locationId);
    const refused = writeRefusal(actor, role, "member", "ask for photos to be read");
    if (refused) throw refused;
    const fileIds = body.fileIds ?? (await photosOf(tx, thing));
    if (!fileIds.length) throw new ValidationError("fileIds: this thing has no photos to read; add one or name the files.", { field: "fileIds" });
    if (body.fileIds) {
      const found = await tx
        .select({ id: files.id, locationId: files.locationId, deletedAt: files.deletedAt })
        .from(files)
        .where(sql`${files.id} = ANY(${`{${fileIds.join(",")}}`}::uuid[])`);
      if (found.length !== new Set(fileIds).size || found.some((f) => f.locationId !== thing.locationId || f.deletedAt)) throw new NotFoundError("file");
    }
    const now = new Date();
    const [id] = await queueExtractions(
      tx,
      [{ locationId: thing.locationId, thingId: thing.id, mode: body.mode, fileIds: [...new Set(fileIds)], requestedBy: actor.userId }],
      now,
    );
    const [row] = await tx.select().from(extractions).where(eq(extractions.id, id!));
    return extractionOut(row!, null, actor.userId);
  });
}
