/**
 * What a succeeded extraction does to its thing. A field the thing has no value for takes the
 * model's value (state `extracted`, with its confidence; the field is in the run's `applied`); a
 * field that already holds a value keeps it, and the model's differing value waits beside it as
 * a suggestion a person may take. Nothing a person wrote is ever overwritten.
 *
 * The write does not bump the thing's rowVersion: the values are the server's proposal, not a
 * person's edit, and a person's op made offline against the older version must still apply (and
 * win) instead of meeting a conflict with a machine. The change still reaches every device
 * through the change log, and the history entry says which call filled what.
 */
import { isDeepStrictEqual } from "node:util";
import type { FieldStatus, Suggestion } from "../../../shared/extractions.js";
import { historyRow, type HistoryContext } from "../../commands/history.js";
import { sql, type Tx } from "../../db/client.js";
import { historyEntries, type things } from "../../db/schema/index.js";
import { fieldClasses } from "../things/custom-fields.js";
import type { Refs } from "../things/refs.js";
import { readValues, writeValues } from "../things/values.js";
import type { ReadValue } from "./answer.js";
import type { StoredCall } from "./calls.js";

type ThingRow = typeof things.$inferSelect;

const isEmpty = (v: unknown) => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);

/** Values as a field compares them: a quantity "2" equals "2.000". */
function same(key: string, a: unknown, b: unknown): boolean {
  if (key === "quantity") return Number(a) === Number(b);
  if (typeof a === "string" && typeof b === "string") return a.trim().toLowerCase() === b.trim().toLowerCase();
  return isDeepStrictEqual(a, b);
}

export interface Applied {
  applied: string[];
  suggested: string[];
}

export async function applyAnswer(
  tx: Tx,
  thing: ThingRow,
  refs: Refs,
  found: ReadValue[],
  run: { id: string; fileIds: string[] },
  call: StoredCall,
  now: Date,
): Promise<Applied> {
  const status: FieldStatus = structuredClone(thing.fieldStatus ?? {});
  const current = readValues(
    thing,
    found.map((f) => f.key),
  );
  const fill: Record<string, unknown> = {};
  const suggested: string[] = [];
  for (const f of found) {
    const entry = status[f.key];
    // A person cleared a field the model had filled: their empty value stands (state manual).
    if (isEmpty(current[f.key]) && entry?.state !== "confirmed") {
      fill[f.key] = f.value;
      status[f.key] = { state: "extracted", confidence: f.confidence };
      continue;
    }
    if (same(f.key, current[f.key], f.value)) continue;
    const suggestion: Suggestion = {
      field: f.key,
      value: f.value,
      confidence: f.confidence,
      source: { extractionId: run.id, attachmentId: run.fileIds[f.photo ?? 0] ?? run.fileIds[0]! },
    };
    // The newest run's suggestion replaces older ones for the field: they read the same photos or older ones.
    status[f.key] = { ...(entry ?? { state: "manual" }), suggestions: [suggestion] };
    suggested.push(f.key);
  }
  const applied = Object.keys(fill);
  const next = writeValues(thing, fill);
  await tx.execute(
    sql`UPDATE things SET name = ${next.name}, description = ${next.description}, model = ${next.model}, serial = ${next.serial},
          colour = ${next.colour}, quantity = ${next.quantity}, fields = ${JSON.stringify(next.fields)}::jsonb,
          field_status = ${JSON.stringify(status)}::jsonb, updated_at = ${now.toISOString()}::timestamptz
        WHERE id = ${thing.id}`,
  );
  if (applied.length) {
    const ctx: HistoryContext = { actor: SYSTEM_ACTOR, now, undoWindowMs: 0 };
    const row = historyRow(ctx, {
      locationId: thing.locationId,
      entityType: "thing",
      entityId: thing.id,
      entityName: next.name,
      action: "thing.extracted",
      before: current,
      after: readValues(next, applied),
      classes: fieldClasses(refs, thing.typeId, applied),
      summaryKey: "thing.extracted",
      summaryParams: { name: next.name ?? "", fields: applied.join(", ") },
      rowVersionAfter: thing.rowVersion,
      undoable: false,
      aiCall: call,
    });
    // `before` holds only the filled fields; readValues above read every answered one.
    row.before = Object.fromEntries(applied.map((k) => [k, current[k] ?? null]));
    await tx.insert(historyEntries).values({ ...row, actorUserId: null });
  }
  return { applied, suggested };
}

/** The pipeline acts for no one; its history entries name no person. */
const SYSTEM_ACTOR = { type: "system", userId: "", displayName: "AI", mfaProven: false, locationScope: null, canWrite: true } as const;
