/**
 * Commands on templates (a registry of the owner account, so `minRole: "admin"`): create (save a
 * thing as a template), update (rename, change the locations it is offered in) and delete (a
 * tombstone). An op acts through a location (`op.locationId`) and writes to that location's
 * account; template.create acts through the thing's location.
 */
import { inArray } from "drizzle-orm";
import {
  TEMPLATE_LOCATIONS_MAX,
  templateCreateArgs,
  templateDeleteArgs,
  templateUpdateArgs,
  type TemplateCreateArgs,
  type TemplateDeleteArgs,
  type TemplatePayload,
  type TemplateUpdateArgs,
} from "../../../shared/templates.js";
import { seesMoney } from "../../access/money.js";
import { eachOp, onTargets, tombstoneEach } from "../../commands/runs.js";
import { lockTargets } from "../../commands/targets.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { locations, templates, things } from "../../db/schema/index.js";
import { NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";
import { liveThingsOf, loadRefs, type Refs } from "../things/refs.js";

type TemplateRow = typeof templates.$inferSelect;

/**
 * The locations a template is offered in: each one the actor can see (else 404 location, as for
 * any location it cannot see) and of the account the op writes to (a location of another account
 * the actor does see is 400 naming `locationIds`). Answers the ids, lower-cased, or the problem.
 */
function offeredIn(ctx: CommandContext, via: string, ids: readonly string[]): string[] | AppError {
  const account = ctx.accounts.get(via);
  const out = ids.map((id) => id.toLowerCase());
  for (const id of out) {
    if (!ctx.roles.has(id)) return new NotFoundError("location");
    if (ctx.accounts.get(id) !== account)
      return new ValidationError(`locationIds: ${id} belongs to another account; a template is offered only in locations of its own account.`, {
        field: "locationIds",
      });
  }
  return out;
}

/** What template.create reads of a thing. */
const thingColumns = {
  id: things.id,
  locationId: things.locationId,
  typeId: things.typeId,
  description: things.description,
  quantity: things.quantity,
  condition: things.condition,
  brandId: things.brandId,
  model: things.model,
  colour: things.colour,
  tagIds: things.tagIds,
  isContainer: things.isContainer,
  fields: things.fields,
};
type SavedThing = { [K in keyof typeof thingColumns]: (typeof things.$inferSelect)[K] };

/**
 * The values a new thing starts from. Not the name, serial, place, container or photos: those
 * describe one physical thing (a second drill has its own serial and its own shelf), and a
 * template is for the next thing of the same kind. Custom fields only where the type still has
 * them, never a secret one (secret values are not in `things.fields` anyway), and money fields
 * only when the saver may see money.
 */
function payloadOf(thing: SavedThing, refs: Refs, withMoney: boolean): TemplatePayload {
  const p: TemplatePayload = { typeId: thing.typeId, quantity: thing.quantity, isContainer: thing.isContainer };
  if (thing.description !== null) p.description = thing.description;
  if (thing.condition !== null) p.condition = thing.condition;
  if (thing.brandId !== null) p.brandId = thing.brandId;
  if (thing.model !== null) p.model = thing.model;
  if (thing.colour !== null) p.colour = thing.colour;
  if (thing.tagIds.length) p.tagIds = thing.tagIds;
  const defs = refs.fieldsOf(thing.typeId);
  const fields = Object.entries(thing.fields).filter(([key]) => {
    const def = defs.get(key)?.field;
    return def && !def.secret && (def.kind !== "money" || withMoney);
  });
  if (fields.length) p.fields = Object.fromEntries(fields);
  return p;
}

export const templateCreate = defineCommand<TemplateCreateArgs>({
  name: "template.create",
  args: templateCreateArgs,
  minRole: "admin",
  refs: (a) => [a.thingId],
  creates: true,
  async run(ctx, ops) {
    const locs = [...new Set(ops.map((o) => o.input.locationId))];
    const [found, refs, settings] = await Promise.all([
      ctx.tx.select(thingColumns).from(things).where(liveThingsOf(ops)),
      loadRefs(ctx.tx, { locationIds: locs }),
      ctx.tx.select({ id: locations.id, viewersSeeMoney: locations.viewersSeeMoney }).from(locations).where(inArray(locations.id, locs)),
    ]);
    const thingById = new Map(found.map((t) => [t.id, t]));
    const viewersSeeMoney = new Map(settings.map((l) => [l.id, l.viewersSeeMoney]));
    return eachOp(ctx, ops, (changes, { args, input }) => {
      const loc = input.locationId;
      const thing = thingById.get(args.thingId.toLowerCase());
      const offered = offeredIn(ctx, loc, args.locationIds);
      const account = ctx.accounts.get(loc);
      if (!thing || thing.locationId !== loc || !account) return changes.refuse(new NotFoundError("thing"));
      if (!Array.isArray(offered)) return changes.refuse(offered);
      const role = ctx.roles.get(loc);
      const row: TemplateRow = {
        id: args.id,
        accountId: account,
        name: args.name,
        typeId: thing.typeId,
        payload: payloadOf(thing, refs, !!role && seesMoney(role, viewersSeeMoney.get(loc) ?? false)),
        locationIds: offered,
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      };
      changes.created(templates, row, {
        locationId: loc,
        entityType: "template",
        entityId: row.id,
        entityName: row.name,
        action: "template.created",
        before: { name: null, locationIds: null },
        after: { name: row.name, locationIds: row.locationIds },
        summaryParams: { name: row.name },
        undoable: false,
      });
    });
  },
});

/** How the history names a template's edits and its delete. */
const naming = { entityType: "template", nameOf: (t: { name: string }) => t.name, undoable: false };

/** The columns update and delete read and write. */
const TEMPLATE_KEYS = ["accountId", "name", "locationIds", "rowVersion", "deletedAt"] as const;

/** Locks the ops' templates; a template belongs to the op's location when it is of that location's account. */
function lockTemplates(ctx: CommandContext, ops: Op<{ id: string }>[]) {
  const via = new Map(ops.map((o) => [o.args.id, o.input.locationId]));
  return lockTargets(
    ctx,
    templates,
    {
      entity: "template",
      entityType: "template",
      locationOf: (t) => {
        const loc = via.get(t.id);
        return loc !== undefined && ctx.accounts.get(loc) === t.accountId ? loc : undefined;
      },
    },
    ops,
    TEMPLATE_KEYS,
  );
}

export const templateUpdate = defineCommand<TemplateUpdateArgs>({
  name: "template.update",
  args: templateUpdateArgs,
  minRole: "admin",
  run: onTargets(lockTemplates, (changes, op, target, targets, ctx) => {
    const { args, input } = op;
    // locationIds is one field for the merge of stale pushed ops: the whole list is replaced.
    let problem = targets.problem(op, target, { fields: Object.keys(args.patch) });
    const patch: Partial<TemplateRow> = {};
    if (args.patch.name !== undefined) patch.name = args.patch.name;
    if (!problem && target && args.patch.locationIds) {
      const offered = offeredIn(ctx, input.locationId, args.patch.locationIds);
      if (!Array.isArray(offered)) problem = offered;
      else {
        // The locations the actor cannot see stay: an admin of one location does not take a
        // template away from locations it does not know about.
        const kept = target.locationIds.filter((id) => !ctx.roles.has(id) && !offered.includes(id));
        patch.locationIds = [...offered, ...kept];
        if (patch.locationIds.length > TEMPLATE_LOCATIONS_MAX)
          problem = new ValidationError(
            `locationIds: the template is also offered in ${kept.length} locations you cannot see; together that is more than ${TEMPLATE_LOCATIONS_MAX}.`,
            { field: "locationIds" },
          );
      }
    }
    if (changes.refused(problem, target)) return;
    targets.set(changes.patched(templates, target, patch, input.locationId, naming));
  }),
});

export const templateDelete = defineCommand<TemplateDeleteArgs>({
  name: "template.delete",
  args: templateDeleteArgs,
  minRole: "admin",
  run: async (ctx, ops) => tombstoneEach(ctx, ops, await lockTemplates(ctx, ops), templates, naming),
});
