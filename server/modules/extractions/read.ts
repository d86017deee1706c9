/** A thing's extractions as the spec's "Extraction record", newest first, with their calls. */
import { desc, eq } from "drizzle-orm";
import type { ExtractionRecord } from "../../../shared/extractions.js";
import type { Tx } from "../../db/client.js";
import { aiCalls, extractions } from "../../db/schema/index.js";
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
