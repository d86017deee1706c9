/**
 * One claimed extraction, start to end: who pays, whether their month allows it, the photos, the
 * call, and what its answer does. Every end is a status (shared/extractions.ts):
 * - no provider for the scope that would pay: `no_provider` (nothing sent, nothing recorded);
 * - the payer's budget would be passed: `paused_budget` until the month ends (a `not_sent` call
 *   is recorded, so the cost summary shows what was held back);
 * - the provider refused the key (401/403): `failed` at once, `key_refused:<scope>:<status>` as the
 *   reason, and the refusal kept on the payer's settings for the settings screen;
 * - the provider failed, limited or timed out: `waiting_provider`, tried again with backoff, then `failed`;
 * - it refused, cut off, or answered off-schema: `failed`, the outcome as the reason;
 * - it answered: `succeeded`, and the values apply (apply.ts).
 * A run superseded while its call was in flight records the call (it was paid for) and applies nothing.
 */
import type { Logger } from "pino";
import { eq, sql } from "drizzle-orm";
import type { InboxExtraction } from "../../../shared/extractions.js";
import { estimateCost, laterOrUnknown, releaseBudget, reserveBudget, settleBudget } from "../../ai/budget.js";
import type { ExtractImage } from "../../ai/extract.js";
import { guardedAiFetch } from "../../ai/guarded-fetch.js";
import { aiGuard } from "../../ai/guard-policy.js";
import { refusedKeyStatus } from "../../ai/key-refusal.js";
import { markKey, resolvePayer } from "../../ai/payer.js";
import type { Payer } from "../../ai/paying.js";
import type { Config } from "../../config.js";
import { SYSTEM_ACTOR } from "../../commands/executor.js";
import { mirrorInboxPayload } from "../../commands/inbox-items.js";
import { runSystem } from "../write.js";
import { asSystem } from "../../db/actor.js";
import type { z } from "zod";
import { rows, type Db, type Tx } from "../../db/client.js";
import { extractions, files, purchases, things, types } from "../../db/schema/index.js";
import { loadSharp } from "../files/sharp.js";
import type { BlobStore } from "../files/storage.js";
import { loadRefs } from "../things/refs.js";
import { answerSchema, askedFields, promptFor, readAnswer, SYSTEM_PROMPT } from "./answer.js";
import { planAnswer, planClasses } from "./apply.js";
import { EXTRACT_TASK, recordCall, type StoredCall } from "./calls.js";
import type { Claimed } from "../../ai/extraction-queue.js";
import { RECEIPT_SYSTEM, readReceipt, receiptAnswerSchema, receiptPrompt, type ReceiptAnswer } from "../receipts/answer.js";
import { applyReceipt } from "../receipts/apply.js";

export interface RunDeps {
  db: Db;
  config: Pick<Config, "ai" | "aiAllowLoopback">;
  store: BlobStore;
  logger: Logger;
  /** Stops calls in flight (shutdown). */
  signal?: AbortSignal;
}

/** Provider errors are tried this many times in all before the run fails. */
export const MAX_ATTEMPTS = 5;
/** Backoff after the nth failed attempt when the provider did not say: 30 s, 2 min, 8 min, 32 min. */
const backoffMs = (attempt: number) => 30_000 * 4 ** (attempt - 1);
/** Photos are sent at most this large (longest side): enough to read a label, a fraction of the tokens. */
const MAX_SIDE = 1568;
const RETRIED = new Set(["rate_limited", "provider_error", "timeout"]);

interface Loaded {
  /** The thing read (mode `thing`); null for a receipt, whose purchase is read instead. */
  thing: typeof things.$inferSelect | null;
  typeName: string;
  photos: { id: string; sha256: string; mime: string }[];
}

async function load(tx: Tx, run: Claimed): Promise<Loaded | null> {
  let thing: Loaded["thing"] = null;
  let typeName = "receipt";
  let locationId: string;
  if (run.thing_id) {
    [thing = null] = await tx.select().from(things).where(eq(things.id, run.thing_id));
    if (!thing || thing.deletedAt) return null;
    const [type] = await tx.select({ name: types.name }).from(types).where(eq(types.id, thing.typeId));
    typeName = type?.name ?? "thing";
    locationId = thing.locationId;
  } else {
    const [purchase] = await tx.select().from(purchases).where(eq(purchases.id, run.purchase_id!));
    if (!purchase || purchase.deletedAt) return null;
    locationId = purchase.locationId;
  }
  const found = await tx
    .select({ id: files.id, sha256: files.sha256, mime: files.mime, locationId: files.locationId, deletedAt: files.deletedAt })
    .from(files)
    .where(sql`${files.id} = ANY(${`{${run.file_ids.join(",")}}`}::uuid[])`);
  const byId = new Map(found.filter((f) => f.locationId === locationId && !f.deletedAt).map((f) => [f.id, f]));
  const photos = run.file_ids.flatMap((id) => (byId.get(id) ? [byId.get(id)!] : []));
  return { thing, typeName, photos };
}

/** What is gone when a run's subject is. */
const goneReason = (run: Claimed) => (run.thing_id ? "thing_deleted" : "purchase_deleted");

async function imageOf(store: BlobStore, photo: { sha256: string; mime: string }): Promise<ExtractImage | null> {
  const chunks: Buffer[] = [];
  for await (const c of await store.open(photo.sha256)) chunks.push(c as Buffer);
  const original = Buffer.concat(chunks);
  const sharp = await loadSharp();
  try {
    const bytes = await sharp(original).rotate().resize(MAX_SIDE, MAX_SIDE, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 82 }).toBuffer();
    return { bytes, mime: "image/jpeg" };
  } catch {
    // A kind sharp cannot read here (HEIC without its codec): sent as it is if the providers take it.
    return ["image/jpeg", "image/png", "image/webp"].includes(photo.mime) ? { bytes: original, mime: photo.mime } : null;
  }
}

/** Sets the run's status (if it is still this worker's claim) and mirrors it on the thing's open draft, or the purchase's receipt item. */
async function settle(
  tx: Tx,
  run: Claimed,
  to: { status: InboxExtraction["status"]; reason?: string | null; runAfter?: Date; pausedUntil?: Date; call?: StoredCall; applied?: string[]; model?: string },
  now: Date,
): Promise<boolean> {
  const [updated] = await rows<{ id: string }>(
    tx,
    sql`UPDATE extractions SET status = ${to.status}, status_reason = ${to.reason ?? null}, lease_until = NULL,
          run_after = ${(to.runAfter ?? now).toISOString()}::timestamptz, paused_until = ${to.pausedUntil?.toISOString() ?? null}::timestamptz,
          call_id = coalesce(${to.call?.id ?? null}::uuid, call_id), model = coalesce(${to.model ?? null}, model),
          applied = ${`{${(to.applied ?? []).join(",")}}`}::text[], updated_at = ${now.toISOString()}::timestamptz
        WHERE id = ${run.id} AND status = 'running' AND attempt = ${run.attempt} RETURNING id::text AS id`,
  );
  if (!updated) return false;
  const shown: InboxExtraction = {
    id: run.id,
    status: to.status,
    ...(to.reason ? { statusReason: to.reason } : {}),
    ...(to.pausedUntil ? { pausedUntil: to.pausedUntil.toISOString() } : {}),
    ...(to.call ? { call: { ...withoutOwner(to.call) } } : {}),
  };
  // The thing's open draft, or the purchase's open receipt item (its id is the purchase's).
  const match = run.thing_id
    ? { by: "thing" as const, ids: [run.thing_id], kinds: ["draft" as const], open: true }
    : { by: "id" as const, ids: [run.purchase_id!], kinds: ["receipt" as const], open: true };
  await mirrorInboxPayload(tx, "extraction", match, shown, now);
  return true;
}

function withoutOwner(call: StoredCall) {
  const { paidByUserId: _owner, task: _task, ...record } = call;
  return record;
}

/** What a succeeded call's answer does, in the transaction that records the call. */
type Apply = (tx: Tx, object: Record<string, unknown>, call: StoredCall, now: Date) => Promise<{ applied: string[] } | { failed: string }>;

interface Ask {
  schema: z.ZodType<Record<string, unknown>>;
  system: string;
  prompt: string;
  apply: Apply;
}

/** A thing's run asks for the fields of its type; its answer fills the empty ones (apply.ts). */
async function thingAsk(db: Db, run: Claimed, loaded: Loaded, thing: typeof things.$inferSelect): Promise<Ask> {
  const refs = await asSystem(db, (tx) => loadRefs(tx, { locationIds: [run.location_id] }));
  const fields = askedFields(refs.fieldsOf(thing.typeId));
  return {
    schema: answerSchema(fields),
    system: SYSTEM_PROMPT,
    prompt: promptFor(loaded.typeName, loaded.photos.length),
    async apply(tx, object, call) {
      const [current] = await tx.select().from(things).where(eq(things.id, thing.id)).for("update");
      if (!current || current.deletedAt) return { failed: "thing_deleted" };
      const found = readAnswer(fields, object, loaded.photos.length);
      const plan = planAnswer(current, found, { id: run.id, fileIds: loaded.photos.map((p) => p.id) });
      const args = { id: current.id, fill: plan.fill, fieldStatus: plan.fieldStatus, classes: planClasses(refs, current, plan), call };
      await runSystem(tx, SYSTEM_ACTOR, { name: "thing.extract", locationId: current.locationId, args }, { undoWindowMs: 0 });
      return { applied: plan.applied };
    },
  };
}

/** A receipt's run asks for vendor, date, currency, amounts and lines; its answer fills the purchase (receipts/apply.ts). */
function receiptAsk(run: Claimed, pages: number): Ask {
  return {
    schema: receiptAnswerSchema,
    system: RECEIPT_SYSTEM,
    prompt: receiptPrompt(pages),
    apply: (tx, object, _call, now) => applyReceipt(tx, run.purchase_id!, readReceipt(object as ReceiptAnswer), now),
  };
}

export async function runExtraction(deps: RunDeps, run: Claimed, now: () => Date = () => new Date()): Promise<void> {
  // The AI SDK and its providers (several MB of code) load with the first extraction, not at start.
  const { DEFAULT_MAX_OUTPUT_TOKENS, extractStructured, notSent } = await import("../../ai/extract.js");
  const { db } = deps;
  const loaded = await asSystem(db, (tx) => load(tx, run));
  if (!loaded) return void (await asSystem(db, (tx) => settle(tx, run, { status: "failed", reason: goneReason(run) }, now())));
  if (!loaded.photos.length) return void (await asSystem(db, (tx) => settle(tx, run, { status: "failed", reason: "no_photos" }, now())));
  const facts = { locationId: run.location_id, thingId: run.thing_id, extractionId: run.id, task: EXTRACT_TASK[run.mode], requestedBy: run.requested_by };
  const payer = await resolvePayer(db, deps.config, { locationId: run.location_id, requestedBy: run.requested_by });
  if (!payer) return void (await asSystem(db, (tx) => settle(tx, run, { status: "no_provider" }, now())));
  const images = loaded.photos.length;
  if (payer.provider.kind !== "compatible_api" && !payer.provider.apiKey) {
    // The payer's settings hold no key that opens (removed, or sealed under another secret): refused before sending.
    const record = notSent({ provider: payer.provider, paidBy: payer.paidBy, images }, "no_provider");
    await asSystem(db, async (tx) => {
      const call = await recordCall(tx, record, payer, facts, now());
      await settle(tx, run, { status: "no_provider", reason: "no_api_key", call }, now());
    });
    return;
  }
  const estimate = estimateCost(payer.provider, loaded.photos.length, DEFAULT_MAX_OUTPUT_TOKENS);
  const reserved = await reserveBudget(db, payer, estimate, now());
  if (!reserved.ok) {
    const record = notSent({ provider: payer.provider, paidBy: payer.paidBy, images: loaded.photos.length }, "over_budget");
    await asSystem(db, async (tx) => {
      const call = await recordCall(tx, record, payer, facts, now());
      await settle(tx, run, { status: "paused_budget", reason: "over_budget", pausedUntil: reserved.pausedUntil, runAfter: reserved.pausedUntil, call }, now());
    });
    return;
  }
  let sentCall = false;
  try {
    const images = (await Promise.all(loaded.photos.map((p) => imageOf(deps.store, p)))).filter((x): x is ExtractImage => x !== null);
    if (!images.length) return void (await asSystem(db, (tx) => settle(tx, run, { status: "failed", reason: "unreadable_photos" }, now())));
    const ask = loaded.thing ? await thingAsk(db, run, loaded, loaded.thing) : receiptAsk(run, images.length);
    sentCall = true;
    const result = await extractStructured({
      provider: payer.provider,
      paidBy: payer.paidBy,
      schema: ask.schema,
      system: ask.system,
      prompt: ask.prompt,
      images,
      ...(payer.guarded ? { fetch: guardedAiFetch(aiGuard(deps.config)) } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    const record = laterOrUnknown(result.record);
    await asSystem(db, async (tx) => {
      const call = await recordCall(tx, record, payer, { ...facts, tokens: result.usage, month: reserved.reservation.month }, now());
      await settleBudget(tx, reserved.reservation, record.cost ?? null);
      await finish(tx, run, payer, call, result.object, result.retryAfterSeconds, ask.apply, now());
    });
  } catch (err) {
    if (!sentCall) await releaseBudget(db, reserved.reservation);
    throw err;
  }
}

async function finish(
  tx: Tx,
  run: Claimed,
  payer: Payer,
  call: StoredCall,
  object: Record<string, unknown> | null,
  retryAfterSeconds: number | null,
  apply: Apply,
  now: Date,
): Promise<void> {
  const model = payer.provider.model;
  // Locked so a newer run (which supersedes this one) or a person's op waits for this to finish.
  const [current] = await tx.select().from(extractions).where(eq(extractions.id, run.id)).for("update");
  // A claim taken over after this worker's lease ended (attempt counts claims) is no longer this one's.
  if (!current || current.status !== "running" || current.attempt !== run.attempt) return;
  const refusedKey = refusedKeyStatus(call.errorCode);
  if (refusedKey !== null) {
    // Not an outage: trying again with the same key would only be refused again. The reason names
    // whose key it was (the client words it: "the AI provider refused the key set for the account").
    await markKey(tx, payer, refusedKey, now);
    await settle(tx, run, { status: "failed", reason: `key_refused:${payer.paidBy.scope}:${refusedKey}`, call, model }, now);
    return;
  }
  if (call.outcome === "ok" && object) {
    await markKey(tx, payer, null, now);
    const done = await apply(tx, object, call, now);
    if ("failed" in done) return void (await settle(tx, run, { status: "failed", reason: done.failed, call, model }, now));
    await settle(tx, run, { status: "succeeded", call, applied: done.applied, model }, now);
    return;
  }
  if (RETRIED.has(call.outcome) && call.errorCode !== "cancelled" && run.attempt < MAX_ATTEMPTS) {
    const wait = retryAfterSeconds !== null ? Math.min(retryAfterSeconds * 1000, 3600_000) : backoffMs(run.attempt);
    await settle(tx, run, { status: "waiting_provider", reason: call.outcome, runAfter: new Date(now.getTime() + wait), call, model }, now);
    return;
  }
  if (call.errorCode === "cancelled") {
    // Shutdown stopped the call: the run goes back to the queue as it was.
    await tx.execute(sql`UPDATE extractions SET status = 'queued', lease_until = NULL, call_id = ${call.id} WHERE id = ${run.id} AND status = 'running'`);
    return;
  }
  await settle(tx, run, { status: "failed", reason: call.errorCode ? `${call.outcome}:${call.errorCode}` : call.outcome, call, model }, now);
}
