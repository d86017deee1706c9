/**
 * AI call records at rest (ai_calls) and on the way out. A call is written in the transaction
 * that settles its budget reservation, so spend and record never disagree. `paidBy.mine` depends
 * on who reads: it is worked out per reader, never stored.
 */
import { v7 as uuidv7 } from "uuid";
import { trimDecimal } from "../../../shared/ids.js";
import type { AiCallRecord, AiCallWithTask } from "../../../shared/ai.js";
import { monthOf } from "../../ai/budget.js";
import type { Payer } from "../../ai/paying.js";
import { inArray } from "drizzle-orm";
import { sql, type Queryable, type Tx } from "../../db/client.js";
import { aiCalls } from "../../db/schema/index.js";

export const EXTRACT_TASK = { thing: "extract_thing", receipt: "extract_receipt" } as const;

export interface CallFacts {
  locationId: string;
  thingId: string | null;
  extractionId: string | null;
  task: string;
  requestedBy: string | null;
  tokens?: { input: number; output: number };
  /** The budget month the call is counted in (its reservation's); the month of `now` otherwise. */
  month?: string;
}

/** Writes the record; answers it with its id, and the form a history entry keeps. */
export async function recordCall(q: Queryable, record: AiCallRecord, payer: Payer, facts: CallFacts, now: Date): Promise<StoredCall> {
  const id = uuidv7();
  await q.execute(
    sql`INSERT INTO ai_calls (id, location_id, thing_id, extraction_id, task, model, provider_kind, tokens_in, tokens_out, tokens, images,
          cost_amount, cost_currency, cost_source, paid_by_scope, paid_by_label, payer_key, paid_by_user_id, paid_by_account_id,
          outcome, error_code, requested_by, month, created_at)
        VALUES (${id}, ${facts.locationId}, ${facts.thingId}, ${facts.extractionId}, ${facts.task}, ${record.model}, ${record.providerKind},
          ${facts.tokens?.input ?? 0}, ${facts.tokens?.output ?? 0}, ${record.tokens}, ${record.images},
          ${record.cost?.amount ?? null}, ${record.cost?.currency ?? null}, ${record.costSource}, ${record.paidBy.scope}, ${record.paidBy.label},
          ${payer.payerKey}, ${payer.userId}, ${payer.accountId}, ${record.outcome}, ${record.errorCode}, ${facts.requestedBy},
          ${facts.month ?? monthOf(now)}, ${now.toISOString()}::timestamptz)`,
  );
  return { ...record, id, task: facts.task, paidByUserId: payer.userId };
}

/** What history entries keep in `ai_call`: the record with its task and whose money it was. */
export type StoredCall = AiCallWithTask & { paidByUserId: string | null };

type CallRow = typeof aiCalls.$inferSelect;

/** A stored row as the spec's AI call record, for `reader` (null: nobody's in particular). */
export function callRecordOf(row: CallRow, reader: string | null): AiCallRecord {
  return {
    id: row.id,
    model: row.model,
    providerKind: row.providerKind,
    tokens: row.tokens,
    images: row.images,
    ...(row.costAmount !== null && row.costCurrency ? { cost: { amount: trimDecimal(row.costAmount), currency: row.costCurrency } } : {}),
    costSource: row.costSource,
    paidBy: { scope: row.paidByScope, label: row.paidByLabel, mine: reader !== null && row.paidByUserId === reader },
    outcome: row.outcome,
    errorCode: row.errorCode,
  };
}

/** The calls rows of history entries name, as they are now (a call costed later has its cost). */
export type LiveCalls = ReadonlyMap<string, CallRow>;

export async function liveCalls(tx: Tx, stored: unknown[]): Promise<LiveCalls> {
  const ids = stored.flatMap((c) => (c && typeof c === "object" && typeof (c as StoredCall).id === "string" ? [(c as StoredCall).id!] : []));
  if (!ids.length) return new Map();
  const found = await tx
    .select()
    .from(aiCalls)
    .where(inArray(aiCalls.id, [...new Set(ids)]));
  return new Map(found.map((r) => [r.id, r]));
}

/** A history entry's call, for `reader`: the live row where it can be read, else the copy the entry kept. */
export function storedCallOut(stored: unknown, reader: string | null, live: LiveCalls = new Map()): AiCallWithTask | null {
  if (!stored || typeof stored !== "object") return null;
  const { paidByUserId, ...call } = stored as StoredCall;
  const row = call.id ? live.get(call.id) : undefined;
  if (row) return { ...callRecordOf(row, reader), task: call.task };
  return { ...call, paidBy: { ...call.paidBy, mine: reader !== null && paidByUserId === reader } };
}
