/**
 * A person's answers to the AI, as ops (offline too): `thing.suggestion.accept` makes a suggested
 * value the field's (state `confirmed`: a person chose it), `thing.field.confirm` says a value
 * the pipeline filled in is right. Both are edits like any other: a new rowVersion and a history
 * entry; an accepted suggestion's entry carries the call that read it (`aiCall`), so the history
 * shows what it cost.
 */
import { eq, sql } from "drizzle-orm";
import { fieldConfirmArgs, suggestionAcceptArgs, type FieldStatus } from "../../../shared/extractions.js";
import { eachOp, onTargets } from "../../commands/runs.js";
import { lockTargets, type Targets } from "../../commands/targets.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { aiCalls, extractions, things } from "../../db/schema/index.js";
import { ConflictError } from "../../errors/classes.js";
import { valuesProblem } from "../registries/field-values.js";
import { editThing } from "../things/changes.js";
import { fieldClasses } from "../things/custom-fields.js";
import { loadRefs } from "../things/refs.js";
import { TARGET_KEYS, writeValues, type ThingRow, type ThingTarget } from "../things/values.js";
import { callRecordOf, type StoredCall } from "./calls.js";

const VALUE_COLUMNS = ["fieldStatus", "fields", "description", "model", "serial", "colour", "quantity"] as const satisfies (keyof ThingRow)[];

function lockAnswered(ctx: CommandContext, ops: Op<{ id: string }>[]): Promise<Targets<ThingTarget>> {
  return lockTargets(ctx, things, { entity: "thing", entityType: "thing" }, ops, [...TARGET_KEYS, ...VALUE_COLUMNS]) as Promise<Targets<ThingTarget>>;
}

/** The stored call of each extraction, as history keeps it. */
async function callsOf(ctx: CommandContext, extractionIds: string[]): Promise<Map<string, StoredCall>> {
  const out = new Map<string, StoredCall>();
  if (!extractionIds.length) return out;
  const found = await ctx.tx
    .select({ extractionId: extractions.id, mode: extractions.mode, call: aiCalls })
    .from(extractions)
    .innerJoin(aiCalls, eq(aiCalls.id, extractions.callId))
    .where(sql`${extractions.id} = ANY(${`{${[...new Set(extractionIds)].join(",")}}`}::uuid[])`);
  for (const r of found) out.set(r.extractionId, { ...callRecordOf(r.call, null), task: r.call.task, paidByUserId: r.call.paidByUserId });
  return out;
}

export const suggestionAccept = defineCommand({
  name: "thing.suggestion.accept",
  args: suggestionAcceptArgs,
  minRole: "member",
  async run(ctx, ops) {
    const targets = await lockAnswered(ctx, ops);
    const refs = await loadRefs(ctx.tx, { locationIds: ops.map((o) => o.input.locationId) });
    const calls = await callsOf(
      ctx,
      ops.map((o) => o.args.extractionId),
    );
    const accepted: { extractionId: string; field: string }[] = [];
    const verdicts = await eachOp(ctx, ops, (changes, op) => {
      const { field, extractionId } = op.args;
      const target = targets.get(op.args.id);
      const status: FieldStatus = target?.fieldStatus ?? {};
      const suggestion = status[field]?.suggestions?.find((s) => s.source.extractionId === extractionId);
      let problem = targets.problem(op, target, {
        fields: [field],
        also: () => (suggestion ? null : new ConflictError("That suggestion is no longer offered for this field (a newer reading or an edit replaced it).")),
      });
      if (!problem && field.startsWith("fields.") && target)
        problem = valuesProblem(
          refs.fieldsOf(target.typeId),
          { [field.slice(7)]: suggestion!.value },
          { locationId: op.input.locationId, fileLocation: new Map(), owner: "type" },
        );
      if (changes.refused(problem, target)) return;
      // No problem means the check found the suggestion (`also` above).
      const offered = suggestion!;
      const next = writeValues(target, { [field]: offered.value });
      next.fieldStatus = { ...status, [field]: { state: "confirmed", confidence: offered.confidence } };
      accepted.push({ extractionId, field });
      const call = calls.get(extractionId);
      const classes = fieldClasses(refs, target.typeId, [field]);
      // The summary names the value taken where every reader may see it (not money).
      const shown =
        (classes[field] ?? "plain") === "plain" && (typeof offered.value === "string" || typeof offered.value === "number") ? String(offered.value) : "";
      editThing(changes, targets, target, next, ctx.now, {
        action: "thing.updated",
        summaryKey: "thing.suggestion_accepted",
        summaryParams: { field, value: shown },
        keys: [field],
        classes,
        touches: ["fieldStatus"],
        ...(call ? { aiCall: call } : {}),
      });
    });
    // The run's `applied` names the fields its suggestions filled.
    if (accepted.length)
      await ctx.tx.execute(
        sql`UPDATE extractions e SET applied = (SELECT array_agg(DISTINCT x) FROM unnest(e.applied || a.fields) x)
            FROM (SELECT (v->>'extractionId')::uuid AS id, array_agg(v->>'field') AS fields FROM jsonb_array_elements(${JSON.stringify(accepted)}::jsonb) v GROUP BY 1) a
            WHERE e.id = a.id`,
      );
    return verdicts;
  },
});

export const fieldConfirm = defineCommand({
  name: "thing.field.confirm",
  args: fieldConfirmArgs,
  minRole: "member",
  run: onTargets(lockAnswered, (changes, op, target, targets, ctx) => {
    const { field } = op.args;
    const entry = target?.fieldStatus?.[field];
    const problem = targets.problem(op, target, {
      fields: [field],
      also: () => (entry?.state === "extracted" ? null : new ConflictError("Only a value read from a photo and not yet confirmed can be confirmed.")),
    });
    if (changes.refused(problem, target)) return;
    // No problem means the check found the entry (`also` above).
    const next: ThingTarget = { ...target, fieldStatus: { ...target.fieldStatus, [field]: { ...entry!, state: "confirmed" } } };
    editThing(changes, targets, target, next, ctx.now, {
      action: "thing.updated",
      summaryKey: "thing.field_confirmed",
      summaryParams: { field },
      keys: [],
      touches: ["fieldStatus"],
    });
  }),
});
