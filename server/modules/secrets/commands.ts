/**
 * Commands of secret fields, REST only (never pushed).
 *
 * secret.reveal is the audit of one reveal: it checks the owner's policy and that the key names a
 * secret field of the thing's type, and records a `secret.revealed` entry in the thing's history
 * (the field hidden, no value); the service decrypts the value in the same transaction. The thing
 * itself does not change.
 *
 * type_field.convert makes a field secret or plain and moves every value with it (see
 * conversion.ts): the things get a new rowVersion and a history entry each, the field its new form.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { secretRevealArgs, typeFieldConvertArgs, type SecretRevealArgs, type TypeFieldConvertArgs } from "../../../shared/secrets.js";
import { lockRows } from "../../commands/bulk.js";
import { eachOp } from "../../commands/runs.js";
import { SegmentChanges } from "../../commands/segment.js";
import { defineCommand, type CommandContext } from "../../commands/types.js";
import { locations, things, typeFields } from "../../db/schema/index.js";
import { ForbiddenError, GoneError, NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";
import { changeThing } from "../things/changes.js";
import { loadRefs } from "../things/refs.js";
import { conversionPlan, notesLine, scrubHistory, withNote, type FieldRow } from "./conversion.js";
import { writeSecretValues, type SecretRowWrite } from "./values.js";

export const secretReveal = defineCommand<SecretRevealArgs>({
  name: "secret.reveal",
  args: secretRevealArgs,
  // Any reader may, if the owner's policy names their role (checked below).
  minRole: "viewer",
  async run(ctx, ops) {
    // Read, not locked: a reveal changes nothing, and a viewer may not lock rows it cannot write.
    const ids = ops.map((o) => o.args.id);
    const found = await ctx.tx
      .select({
        id: things.id,
        locationId: things.locationId,
        typeId: things.typeId,
        name: things.name,
        rowVersion: things.rowVersion,
        deletedAt: things.deletedAt,
      })
      .from(things)
      .where(inArray(things.id, ids));
    const byId = new Map(found.map((t) => [t.id, t]));
    const locationIds = [...new Set(ops.map((o) => o.input.locationId))];
    const policies = new Map(
      (
        await ctx.tx
          .select({ id: locations.id, roles: locations.secretRevealRoles })
          .from(locations)
          .where(and(inArray(locations.id, locationIds)))
      ).map((l) => [l.id, l.roles]),
    );
    const refs = await loadRefs(ctx.tx, { locationIds });
    return eachOp(ctx, ops, (changes, op) => {
      const loc = op.input.locationId;
      const thing = byId.get(op.args.id);
      const role = ctx.roles.get(loc);
      const field = thing ? refs.fieldsOf(thing.typeId).get(op.args.key)?.field : undefined;
      let problem: AppError | null = null;
      if (!thing || thing.locationId !== loc) problem = new NotFoundError("thing");
      else if (thing.deletedAt) problem = new GoneError("thing");
      else if (!field?.secret) problem = new NotFoundError("secret field");
      // The owner always may; others when the owner's policy names their role (spec "Roles in a location").
      else if (role !== "owner" && !(role && (policies.get(loc) ?? []).includes(role)))
        problem = new ForbiddenError(`Your role (${role}) may not reveal secret values in this location; its owner decides who may.`, { role });
      if (changes.refused(problem, thing)) return;
      const eventId = changes.record({
        locationId: loc,
        entityType: "thing",
        entityId: thing.id,
        entityName: thing.name,
        action: "secret.revealed",
        before: {},
        after: {},
        hidden: { [`fields.${op.args.key}`]: false },
        summaryKey: "secret.revealed",
        summaryParams: { name: thing.name ?? "", field: field!.label ?? op.args.key },
        rowVersionAfter: thing.rowVersion,
        undoable: false,
      });
      changes.applied(thing.id, thing.rowVersion, eventId);
    });
  },
});

/** Why the actor may not convert `field` through `locationId`, or null. */
async function convertProblem(ctx: CommandContext, field: FieldRow | undefined, locationId: string): Promise<AppError | null> {
  const accountId = ctx.accounts.get(locationId);
  if (!field || field.deletedAt || field.accountId !== accountId) return new NotFoundError("type field");
  if (field.archivedAt) return new ValidationError("id: that field is archived; its values are kept as they are.", { field: "id" });
  if (!field.typeId) return new ValidationError("id: converting a place-kind field is not supported yet.", { field: "id" });
  // Every value of the field moves, in every location of the account: the actor must be the owner
  // in each (a location it cannot see now, e.g. behind two-factor, would keep values behind).
  const all = await ctx.tx
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.accountId, field.accountId), isNull(locations.deletedAt)));
  if (all.some((l) => ctx.roles.get(l.id) !== "owner"))
    return new ForbiddenError("Only the owner converts a field to or from secret, and needs every location of the account in view (prove your second factor).");
  return null;
}

export const typeFieldConvert = defineCommand<TypeFieldConvertArgs>({
  name: "type_field.convert",
  args: typeFieldConvertArgs,
  minRole: "owner",
  async run(ctx, ops) {
    const fields = new Map(
      (
        await lockRows(
          ctx.tx,
          typeFields,
          ops.map((o) => o.args.id),
        )
      ).map((f) => [f.id, f]),
    );
    const changes = new SegmentChanges(ctx);
    const secrets: SecretRowWrite[] = [];
    // Conversions are rare and each moves many values: one op at a time, each set-based.
    for (const op of ops) {
      const loc = op.input.locationId;
      const field = fields.get(op.args.id);
      const problem = await convertProblem(ctx, field, loc);
      if (problem || !field) {
        changes.refuse(problem!);
        continue;
      }
      const { toSecret } = op.args;
      if (field.secret === toSecret) {
        // Already in that form: nothing moves (a retried conversion is harmless).
        changes.applied(field.id, field.rowVersion, null);
        continue;
      }
      const key = `fields.${field.key}`;
      for (const t of await conversionPlan(ctx.tx, field, toSecret, loc, true)) {
        const fieldsNext = { ...t.fields };
        if (toSecret) delete fieldsNext[field.key];
        else if (t.fits) fieldsNext[field.key] = t.value;
        const description = t.fits ? t.description : withNote(t.description, notesLine(field, t.value));
        const next = { ...t, fields: fieldsNext, description, rowVersion: t.rowVersion + 1, updatedAt: ctx.now };
        // Into secret_values (encrypted), or out of it (cleared) when the field becomes plain.
        if (!toSecret || t.fits)
          secrets.push({
            key: field.key,
            fieldId: field.id,
            value: toSecret ? t.value : null,
            locationId: t.locationId,
            accountId: field.accountId,
            entity: "thing",
            entityId: t.id,
          });
        changeThing(changes, t, next, {
          action: "thing.field_converted",
          keys: ["description"],
          touches: ["fields"],
          secretKeys: { [key]: true },
          summaryParams: { field: field.label ?? field.key },
        });
      }
      if (toSecret) await scrubHistory(ctx.tx, field, loc);
      const next = { id: field.id, secret: toSecret, rowVersion: field.rowVersion + 1, updatedAt: ctx.now };
      changes.changed(typeFields, next, ["secret", "rowVersion", "updatedAt"], {
        locationId: loc,
        entityType: "type_field",
        entityId: field.id,
        entityName: field.label ?? field.key,
        action: "type_field.converted",
        before: { secret: field.secret },
        after: { secret: toSecret },
        summaryParams: { field: field.label ?? field.key },
        undoable: false,
      });
    }
    const verdicts = await changes.write();
    await writeSecretValues(ctx, secrets);
    return verdicts;
  },
});
