/** A thing's extractions as the spec's "Extraction record", newest first, with their calls; the photos a re-run reads. */
import { desc, eq, sql } from "drizzle-orm";
import type { ExtractionRecord } from "../../../shared/extractions.js";
import type { Tx } from "../../db/client.js";
import { aiCalls, extractions, files } from "../../db/schema/index.js";
import { callRecordOf } from "./calls.js";

/** How many of a thing's runs the list shows (re-runs are a person's act, so a thing has few). */
const LIMIT = 50;

export async function thingExtractions(tx: Tx, thingId: string, reader: string): Promise<ExtractionRecord[]> {
  const found = await tx
    .select({ e: extractions, call: aiCalls })
    .from(extractions)
    .leftJoin(aiCalls, eq(aiCalls.id, extractions.callId))
    .where(eq(extractions.thingId, thingId))
    .orderBy(desc(extractions.createdAt), desc(extractions.id))
    .limit(LIMIT);
  return found.map(({ e, call }) => extractionOut(e, call, reader));
}

export function extractionOut(e: typeof extractions.$inferSelect, call: typeof aiCalls.$inferSelect | null, reader: string): ExtractionRecord {
  return {
    id: e.id,
    attempt: e.attempt,
    mode: e.mode,
    status: e.status,
    statusReason: e.statusReason,
    pausedUntil: e.pausedUntil?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
    model: e.model,
    applied: e.applied,
    call: call ? callRecordOf(call, reader) : null,
  };
}

/** One extraction as the reader sees it, without its call (a run just queued has none). */
export async function findExtraction(tx: Tx, id: string, reader: string): Promise<ExtractionRecord> {
  const [row] = await tx.select().from(extractions).where(eq(extractions.id, id));
  return extractionOut(row!, null, reader);
}

/**
 * The photos a re-run reads when none are named: the thing's photos (its gallery, cover first), else
 * those of its latest run, else the photos its capture brought.
 */
export async function photosOf(tx: Tx, thing: { id: string; coverFileId: string | null; photoFileIds: string[] }): Promise<string[]> {
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

/** The files of these ids the actor can read, with their location and whether they are in the trash. */
export async function filesByIds(tx: Tx, ids: readonly string[]): Promise<{ id: string; locationId: string; deletedAt: Date | null }[]> {
  return tx
    .select({ id: files.id, locationId: files.locationId, deletedAt: files.deletedAt })
    .from(files)
    .where(sql`${files.id} = ANY(${`{${ids.join(",")}}`}::uuid[])`);
}
