/**
 * Templates for routes (and later MCP tools). Each write is one actor transaction: find the row
 * and the location to act through, run the command, read the answer back (server/modules/write.ts).
 */
import { actingLocation } from "../../access/acting.js";
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import type { Template, saveAsTemplateBody, templatePatchBody } from "../../../shared/templates.js";
import type { WriteResult } from "../../../shared/writes.js";
import { locationAccess } from "../../access/location.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Tx } from "../../db/client.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { findThing } from "../things/read.js";
import { writeOne, writeResult } from "../write.js";
import { findTemplate, templatesOfferedIn, templatesOut } from "./read.js";

/** A template as the actor sees it in the location it acted through. */
async function show(tx: Tx, id: string, locationId: string): Promise<Template> {
  const { seesMoney } = await locationAccess(tx, locationId);
  const [out] = await templatesOut(tx, [await findTemplate(tx, id)], { locationId, seesMoney });
  return out!;
}

/** The templates offered in a visible location (404 otherwise). */
export function listTemplates({ db }: ServiceDeps, actor: Actor, locationId: string): Promise<Template[]> {
  return withActor(db, actor, async (tx) => {
    const { seesMoney } = await locationAccess(tx, locationId);
    return templatesOut(tx, await templatesOfferedIn(tx, locationId), { locationId, seesMoney });
  });
}

/** Saves a thing as a template, acting through the thing's location (admins and owners there). */
export function saveAsTemplate(deps: ServiceDeps, actor: Actor, thingId: string, body: z.infer<typeof saveAsTemplateBody>): Promise<Written<Template>> {
  const id = body.id ?? uuidv7();
  let via = "";
  return writeOne(
    deps,
    actor,
    async (tx) => {
      via = (await findThing(tx, thingId)).locationId;
      return { name: "template.create", locationId: via, args: { id, thingId, name: body.name, locationIds: body.locationIds } };
    },
    (tx) => show(tx, id, via),
  );
}

export function updateTemplate(deps: ServiceDeps, actor: Actor, id: string, body: z.infer<typeof templatePatchBody>): Promise<Written<Template>> {
  const { rowVersion, ...patch } = body;
  let via = "";
  return writeOne(
    deps,
    actor,
    async (tx) => {
      const template = await findTemplate(tx, id);
      via = await actingLocation(tx, template.accountId, template.locationIds);
      return { name: "template.update", locationId: via, baseVersion: rowVersion, args: { id, patch } };
    },
    (tx) => show(tx, id, via),
  );
}

/** A tombstone: the answer is the write result. */
export function deleteTemplate(deps: ServiceDeps, actor: Actor, id: string, rowVersion?: number): Promise<Written<WriteResult>> {
  return writeOne(
    deps,
    actor,
    async (tx) => {
      const template = await findTemplate(tx, id);
      return { name: "template.delete", locationId: await actingLocation(tx, template.accountId, template.locationIds), baseVersion: rowVersion, args: { id } };
    },
    writeResult,
  );
}
