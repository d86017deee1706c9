/**
 * A new thing started from a template (`templateId` on thing.create and thing.capture): the
 * template must be of the location's owner account and offered in the op's location (else 404
 * template, whether it is absent, deleted, another account's or offered elsewhere). Its payload
 * fills what the args leave out: the args win key by key (`undefined` leaves a key to the
 * template, `null` is a value and wins too), custom `fields` merge key by key the same way.
 *
 * A template outlives the registry rows it names, so what no longer fits is left out instead of
 * refusing the capture: a brand or tag since deleted, a field since archived, made secret or whose
 * value no longer fits its kind (or that the chosen type does not have). The args themselves are
 * checked strictly as always.
 */
import { and, isNull } from "drizzle-orm";
import type { TemplatePayload } from "../../../shared/templates.js";
import type { ThingCreateArgs } from "../../../shared/things.js";
import { idIn } from "../../commands/bulk.js";
import type { Tx } from "../../db/client.js";
import { templates } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { fieldValueProblem } from "../types/fields.js";
import type { Refs } from "./refs.js";
import { loadTags, type TagRefs } from "./tags.js";

export interface TemplateRef {
  accountId: string;
  locationIds: string[];
  payload: TemplatePayload;
}

/** Live templates by id (read through RLS: another account's are absent). */
export async function loadTemplates(tx: Tx, ids: Iterable<string | null | undefined>): Promise<Map<string, TemplateRef>> {
  const want = [...new Set([...ids].filter((x): x is string => !!x))];
  if (!want.length) return new Map();
  const found = await tx
    .select({ id: templates.id, accountId: templates.accountId, locationIds: templates.locationIds, payload: templates.payload })
    .from(templates)
    .where(and(idIn(templates.id, want), isNull(templates.deletedAt)));
  return new Map(found.map((t) => [t.id, { accountId: t.accountId, locationIds: t.locationIds, payload: t.payload }]));
}

/** The brands and tags the templates name, to load with the args' own. */
export function templateRefIds(found: Map<string, TemplateRef>): { brandIds: string[]; tagIds: string[] } {
  const payloads = [...found.values()].map((t) => t.payload);
  return { brandIds: payloads.flatMap((p) => (p.brandId ? [p.brandId] : [])), tagIds: payloads.flatMap((p) => p.tagIds ?? []) };
}

/** Plain attributes the template fills when the args leave them out. */
const FILLED = ["typeId", "description", "quantity", "condition", "model", "colour", "isContainer"] as const;

/** The args with the template's values filled in, or 404 template. Args without a templateId come back as they are. */
export function fillFromTemplate(
  args: ThingCreateArgs,
  locationId: string,
  found: Map<string, TemplateRef>,
  refs: Refs,
  tags: TagRefs,
): ThingCreateArgs | NotFoundError {
  if (!args.templateId) return args;
  const template = found.get(args.templateId);
  const account = refs.accountOf.get(locationId);
  if (!template || template.accountId !== account || !template.locationIds.includes(locationId)) return new NotFoundError("template");
  const p = template.payload;
  const out: Record<string, unknown> = { ...args };
  for (const key of FILLED) if (out[key] === undefined && p[key] !== undefined) out[key] = p[key];
  if (out.brandId === undefined && p.brandId && refs.brands.get(p.brandId)?.accountId === account) out.brandId = p.brandId;
  if (out.tagIds === undefined && p.tagIds?.length) out.tagIds = p.tagIds.filter((id) => tags.get(id) === account);
  const typeId = (out.typeId as string | undefined) ?? refs.defaultTypeByLocation.get(locationId);
  const defs = typeId ? refs.fieldsOf(typeId) : undefined;
  const kept = Object.entries(p.fields ?? {}).filter(([key, value]) => {
    const def = defs?.get(key)?.field;
    return def && !def.secret && fieldValueProblem(def, value) === null;
  });
  if (kept.length) out.fields = { ...Object.fromEntries(kept), ...args.fields };
  return out as ThingCreateArgs;
}

/** What a segment of creates refers to through templates and tags, loaded before the other refs. */
export async function loadTemplateRefs(
  tx: Tx,
  ops: { args: { templateId?: string | undefined; tagIds?: string[] | undefined } }[],
): Promise<{ templates: Map<string, TemplateRef>; tags: TagRefs; brandIds: string[] }> {
  const found = await loadTemplates(
    tx,
    ops.map((o) => o.args.templateId),
  );
  const named = templateRefIds(found);
  const tags = await loadTags(tx, [...ops.flatMap((o) => o.args.tagIds ?? []), ...named.tagIds]);
  return { templates: found, tags, brandIds: named.brandIds };
}
