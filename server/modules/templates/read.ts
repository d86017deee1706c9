/** Reads of templates: one live template, those offered in a location, the response shape, and the location an admin acts through. */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { roleAtLeast } from "../../../shared/roles.js";
import type { Template, TemplatePayload } from "../../../shared/templates.js";
import { visibleLocations } from "../../access/visible.js";
import type { Tx } from "../../db/client.js";
import { locations, templates, types } from "../../db/schema/index.js";
import { ForbiddenError, NotFoundError } from "../../errors/classes.js";
import { loadRefs } from "../things/refs.js";

export type TemplateRow = typeof templates.$inferSelect;

/** A readable, live template, or 404 whether it is absent, deleted or of an account the actor cannot read. */
export async function findTemplate(tx: Tx, id: string): Promise<TemplateRow> {
  const [t] = await tx
    .select()
    .from(templates)
    .where(and(eq(templates.id, id), isNull(templates.deletedAt)));
  if (!t) throw new NotFoundError("template");
  return t;
}

/** The live templates of the location's account offered in it, by name (the caller checked the location is visible). */
export function templatesOfferedIn(tx: Tx, locationId: string): Promise<TemplateRow[]> {
  return tx
    .select()
    .from(templates)
    .where(
      and(
        eq(templates.accountId, sql`(SELECT ${locations.accountId} FROM ${locations} WHERE ${locations.id} = ${locationId})`),
        sql`${locationId}::uuid = ANY(${templates.locationIds})`,
        isNull(templates.deletedAt),
      ),
    )
    .orderBy(asc(sql`lower(${templates.name})`), asc(templates.id));
}

/**
 * The location an admin acts through on a template it names by id (the REST routes): one of the
 * actor's locations of the template's account where it is owner or admin, preferring one the
 * template is offered in. 403 when there is none (the actor reads the template but may not manage it).
 */
export async function actingLocation(tx: Tx, template: TemplateRow): Promise<string> {
  const mine = (await visibleLocations(tx)).filter((v) => v.location.accountId === template.accountId && roleAtLeast(v.role, "admin"));
  const pick = mine.find((v) => template.locationIds.includes(v.location.id)) ?? mine[0];
  if (!pick) throw new ForbiddenError("Only owners and admins manage templates.", { needed: "admin" });
  return pick.location.id;
}

/**
 * Templates as the reader sees them in `locationId`: `locations` only those it can see, and the
 * payload without money fields where the reader may not see money there.
 */
export async function templatesOut(tx: Tx, rows: TemplateRow[], view: { locationId: string; seesMoney: boolean }): Promise<Template[]> {
  if (!rows.length) return [];
  const typeIds = [...new Set(rows.map((t) => t.typeId))];
  const [visible, icons, refs] = await Promise.all([
    visibleLocations(tx),
    tx.select({ id: types.id, icon: types.icon }).from(types).where(inArray(types.id, typeIds)),
    !view.seesMoney && rows.some((t) => (t.payload as TemplatePayload).fields) ? loadRefs(tx, { locationIds: [view.locationId] }) : undefined,
  ]);
  const names = new Map(visible.map((v) => [v.location.id, v.location.name]));
  const iconOf = new Map(icons.map((t) => [t.id, t.icon]));
  return rows.map((t) => {
    const payload = { ...(t.payload as TemplatePayload) };
    if (refs && payload.fields) {
      const defs = refs.fieldsOf(t.typeId);
      // Only fields known not to be money: a field archived since (absent here) might have been.
      payload.fields = Object.fromEntries(Object.entries(payload.fields).filter(([key]) => defs.has(key) && defs.get(key)?.field.kind !== "money"));
    }
    return {
      id: t.id,
      name: t.name,
      typeId: t.typeId,
      typeIcon: iconOf.get(t.typeId) ?? null,
      payload,
      locations: t.locationIds.flatMap((id) => {
        const name = names.get(id);
        return name === undefined ? [] : [{ id, name }];
      }),
      rowVersion: t.rowVersion,
    };
  });
}
