/** Extractions for routes: a thing's list, and a re-run a person asks for (members and up). */
import type { z } from "zod";
import type { ExtractionRecord, extractionStartBody } from "../../../shared/extractions.js";
import { locationAccess } from "../../access/location.js";
import { writeRefusal } from "../../access/may-write.js";
import { type Actor, withActor } from "../../db/actor.js";
import { NotFoundError, ValidationError } from "../../errors/classes.js";
import type { ServiceDeps } from "../deps.js";
import { findThing } from "../things/read.js";
import { queueExtractions } from "../../ai/extraction-queue.js";
import { filesByIds, findExtraction, photosOf, thingExtractions } from "./read.js";

export function listExtractions({ db }: ServiceDeps, actor: Actor, thingId: string): Promise<{ items: ExtractionRecord[] }> {
  return withActor(db, actor, async (tx) => {
    const thing = await findThing(tx, thingId);
    return { items: await thingExtractions(tx, thing.id, actor.userId) };
  });
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
      const found = await filesByIds(tx, fileIds);
      if (found.length !== new Set(fileIds).size || found.some((f) => f.locationId !== thing.locationId || f.deletedAt)) throw new NotFoundError("file");
    }
    const now = new Date();
    const [id] = await queueExtractions(
      tx,
      [{ locationId: thing.locationId, thingId: thing.id, mode: body.mode, fileIds: [...new Set(fileIds)], requestedBy: actor.userId }],
      now,
    );
    return findExtraction(tx, id!, actor.userId);
  });
}
