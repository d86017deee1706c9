/**
 * What a succeeded extraction does to its thing (planned by planAnswer, written by the system
 * command thing.extract). A field the thing has no value for takes the
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
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { FieldStatus, Suggestion } from "../../../shared/extractions.js";
import { uuidSchema } from "../../../shared/ids.js";
import { eachOp } from "../../commands/runs.js";
import { defineCommand } from "../../commands/types.js";
import { things } from "../../db/schema/index.js";
import { GoneError, NotFoundError } from "../../errors/classes.js";
import { fieldClasses } from "../things/custom-fields.js";
import type { Refs } from "../things/refs.js";
import { readValues, writeValues } from "../things/values.js";
import type { ReadValue } from "./answer.js";

type ThingRow = typeof things.$inferSelect;

const isEmpty = (v: unknown) => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);

/** Values as a field compares them: a quantity "2" equals "2.000". */
function same(key: string, a: unknown, b: unknown): boolean {
  if (key === "quantity") return Number(a) === Number(b);
  if (typeof a === "string" && typeof b === "string") return a.trim().toLowerCase() === b.trim().toLowerCase();
  return isDeepStrictEqual(a, b);
}

/** What an answer does to `thing`: the values it fills, the field status after, and which fields it filled or suggested. */
export interface AnswerPlan {
  fill: Record<string, unknown>;
  fieldStatus: FieldStatus;
  applied: string[];
  suggested: string[];
}

export function planAnswer(thing: ThingRow, found: ReadValue[], run: { id: string; fileIds: string[] }): AnswerPlan {
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
  return { fill, fieldStatus: status, applied: Object.keys(fill), suggested };
}

const extractArgs = z.object({
  id: uuidSchema,
  /** Values by readValues key ("name", "fields.<key>"), as the answer read them. */
  fill: z.record(z.string(), z.unknown()),
  fieldStatus: z.record(z.string(), z.unknown()),
  classes: z.record(z.string(), z.enum(["plain", "money", "secret"])),
  /** The AI call whose answer this is (calls.ts, StoredCall), kept on the history entry. */
  call: z.unknown(),
});
type ExtractArgs = z.infer<typeof extractArgs>;

/**
 * The job's write of a planned answer (planAnswer) into its thing: a system command that bumps no
 * version (see above), run by the extraction worker (run.ts) as the system actor.
 */
export const thingExtract = defineCommand<ExtractArgs>({
  name: "thing.extract",
  system: true,
  bumpsVersion: false,
  args: extractArgs,
  minRole: "member",
  run: (ctx, ops) =>
    eachOp(ctx, ops, async (changes, { args, input }) => {
      const [thing] = await ctx.tx.select().from(things).where(eq(things.id, args.id)).for("update");
      if (!thing || thing.locationId !== input.locationId || thing.deletedAt)
        return changes.refuse(thing?.deletedAt ? new GoneError("thing") : new NotFoundError("thing"));
      const applied = Object.keys(args.fill);
      const next = { ...writeValues(thing, args.fill), fieldStatus: args.fieldStatus as FieldStatus, updatedAt: ctx.now };
      changes.update(things, next, ["name", "description", "model", "serial", "colour", "quantity", "fields", "fieldStatus", "updatedAt"]);
      const eventId = applied.length
        ? changes.record({
            locationId: thing.locationId,
            entityType: "thing",
            entityId: thing.id,
            entityName: next.name,
            action: "thing.extracted",
            before: readValues(thing, applied),
            after: readValues(next, applied),
            classes: args.classes,
            summaryKey: "thing.extracted",
            summaryParams: { name: next.name ?? "", fields: applied.join(", ") },
            rowVersionAfter: thing.rowVersion,
            undoable: false,
            aiCall: args.call,
          })
        : null;
      changes.applied(thing.id, thing.rowVersion, eventId);
    }),
});

/** The history classes of the fields a plan fills (money fields are shown only to those who may see money). */
export const planClasses = (refs: Refs, thing: ThingRow, plan: AnswerPlan) => fieldClasses(refs, thing.typeId, plan.applied);
