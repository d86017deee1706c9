/** thing.create, set-based over a segment of ops; thing.capture reuses it for drafts. */
import { mayDuplicate, raiseDuplicates } from "../duplicates/raise.js";
import { thingCreateArgs, type ThingCreateArgs } from "../../../shared/things.js";
import { SegmentChanges } from "../../commands/segment.js";
import { defineCommand } from "../../commands/types.js";
import { things } from "../../db/schema/index.js";
import { NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";
import { fileLocations, valuesProblem } from "../registries/field-values.js";
import { fileIdsOf } from "../types/fields.js";
import { fieldClasses } from "./custom-fields.js";
import { fillFromTemplate, loadTemplateRefs } from "./from-template.js";
import { secretHistoryKeys, secretRowsFor, secretWriteProblem, splitSecretFields, writeSecretValues, type SecretRowWrite } from "../secrets/values.js";
import { loadRefs } from "./refs.js";
import { tagsProblem } from "./tags.js";
import { readValue, readValues, type ThingRow } from "./values.js";

/** The columns a created thing's history shows (those set, and always the name). */
const CREATE_KEYS = [
  "name",
  "typeId",
  "quantity",
  "lifecycle",
  "isContainer",
  "placeId",
  "containerId",
  "description",
  "condition",
  "brandId",
  "model",
  "colour",
  "serial",
];

export const thingCreate = defineCommand<ThingCreateArgs>({
  name: "thing.create",
  args: thingCreateArgs,
  minRole: "member",
  refs: (a) => [a.placeId, a.containerId, a.typeId, a.brandId, a.templateId, ...(a.tagIds ?? [])],
  creates: true,
  async run(ctx, ops) {
    const fromTemplates = await loadTemplateRefs(ctx.tx, ops);
    const refs = await loadRefs(ctx.tx, {
      locationIds: ops.map((o) => o.input.locationId),
      placeIds: ops.map((o) => o.args.placeId),
      containerIds: ops.map((o) => o.args.containerId),
      brandIds: [...ops.map((o) => o.args.brandId), ...fromTemplates.brandIds],
    });
    // A template's values fill what the args leave out (or the op is refused: 404 template).
    const filled = ops.map(({ input, args }) => ({ input, args: fillFromTemplate(args, input.locationId, fromTemplates.templates, refs, fromTemplates.tags) }));
    // Containers created earlier in this same segment count as existing.
    for (const { args, input } of filled) {
      if (args instanceof NotFoundError) continue;
      const isContainer = args.isContainer ?? refs.types.get(args.typeId ?? "")?.containerByDefault ?? false;
      if (isContainer)
        refs.containers.set(args.id, {
          id: args.id,
          locationId: input.locationId,
          isContainer,
          name: args.name ?? null,
          containerId: args.containerId ?? null,
        });
    }
    // The locations of the files that file fields name, in one query for the segment.
    const typeOf = (args: ThingCreateArgs, loc: string) => args.typeId ?? refs.defaultTypeByLocation.get(loc) ?? "";
    const files = await fileLocations(
      ctx,
      filled.flatMap(({ args, input }) =>
        args instanceof NotFoundError || !args.fields ? [] : fileIdsOf(refs.fieldsOf(typeOf(args, input.locationId)), args.fields),
      ),
    );
    const changes = new SegmentChanges(ctx);
    const secrets: SecretRowWrite[] = [];
    // The new things that could match another (a serial, or a brand and a model): only these are probed.
    const probed = new Set<string>();
    for (const { args, input } of filled) {
      if (args instanceof NotFoundError) {
        changes.refuse(args);
        continue;
      }
      const loc = input.locationId;
      const typeId = args.typeId ?? refs.defaultTypeByLocation.get(loc);
      const type = typeId ? refs.types.get(typeId) : undefined;
      const container = args.containerId ? refs.containers.get(args.containerId) : undefined;
      const place = args.placeId ? refs.places.get(args.placeId) : undefined;
      let problem: AppError | null;
      if (!type || type.accountId !== refs.accountOf.get(loc) || type.isGroup) problem = new NotFoundError("type");
      else if (type.archivedAt) problem = new ValidationError("typeId: that type is archived; no new thing takes it.", { field: "typeId" });
      else if (args.placeId && (!place || place.locationId !== loc)) problem = new NotFoundError("place");
      else if (args.containerId && (!container || container.locationId !== loc)) problem = new NotFoundError("container");
      else if (container && !container.isContainer) problem = new ValidationError("containerId: that thing is not a container.");
      else if (args.brandId && refs.brands.get(args.brandId)?.accountId !== refs.accountOf.get(loc)) problem = new NotFoundError("brand");
      // Required fields are for finished things: a capture draft (lifecycle draft) is completed later.
      else
        problem = valuesProblem(refs.fieldsOf(type.id), args.fields ?? {}, {
          locationId: loc,
          fileLocation: files,
          complete: args.lifecycle !== "draft",
          owner: "type",
        });
      problem ??= tagsProblem(args.tagIds, refs.accountOf.get(loc), fromTemplates.tags);
      if (problem || !type) {
        changes.refuse(problem!);
        continue;
      }
      // Secret values never enter `fields` (which syncs): they are stored encrypted after the rows.
      const split = splitSecretFields(refs.fieldsOf(type.id), args.fields);
      const secret = split.secret.filter((s) => s.value !== null);
      const denied = secretWriteProblem(ctx, split.secret);
      if (denied) {
        changes.refuse(denied);
        continue;
      }
      secrets.push(...secretRowsFor(ctx, loc, "thing", args.id, secret));
      const row: ThingRow = {
        id: args.id,
        locationId: loc,
        placeId: container ? null : (args.placeId ?? refs.unplacedByLocation.get(loc) ?? null),
        containerId: args.containerId ?? null,
        typeId: type.id,
        name: args.name ?? null,
        description: args.description ?? null,
        quantity: args.quantity ?? "1.000",
        lifecycle: args.lifecycle ?? "active",
        condition: args.condition ?? null,
        brandId: args.brandId ?? null,
        tagIds: args.tagIds ?? [],
        model: args.model ?? null,
        colour: args.colour ?? null,
        serial: args.serial ?? null,
        fieldStatus: {},
        fields: Object.fromEntries(Object.entries(split.plain ?? {}).filter(([, v]) => v !== null)),
        shortCode: null,
        isContainer: args.isContainer ?? type.containerByDefault,
        coverFileId: null,
        photoFileIds: [],
        lastSeenAt: ctx.now,
        missingSince: null,
        createdBy: ctx.actor.userId,
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      };
      if (mayDuplicate(row)) probed.add(row.id);
      const shown = [
        ...CREATE_KEYS.filter((k) => k === "name" || readValue(row, k) !== null),
        ...(row.tagIds.length ? ["tagIds"] : []),
        ...Object.keys(row.fields).map((k) => `fields.${k}`),
      ];
      changes.created(things, row, {
        locationId: loc,
        entityType: "thing",
        entityId: row.id,
        entityName: row.name,
        action: "thing.created",
        before: Object.fromEntries(shown.map((k) => [k, null])),
        after: readValues(row, shown),
        classes: fieldClasses(refs, type.id, shown),
        hidden: secretHistoryKeys(secret),
        summaryParams: { name: row.name ?? "" },
        undoable: true,
      });
    }
    const verdicts = await changes.write();
    await writeSecretValues(ctx, secrets);
    await raiseDuplicates(
      ctx,
      ops.filter((o, i) => verdicts[i]?.status === "applied" && probed.has(o.args.id)).map((o) => o.args.id),
    );
    return verdicts;
  },
});
