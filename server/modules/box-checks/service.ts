/** Box checks for routes: record one (the same command a pushed op runs) and list a thing's. */
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import type { BoxCheck, boxCheckCreateBody } from "../../../shared/box-checks.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { findThing } from "../things/read.js";
import { writeOne } from "../write.js";
import { findBoxCheck, thingBoxChecks } from "./read.js";

export function recordBoxCheck(deps: ServiceDeps, actor: Actor, containerId: string, body: z.infer<typeof boxCheckCreateBody>): Promise<Written<BoxCheck>> {
  const id = body.id ?? uuidv7();
  return writeOne(
    deps,
    actor,
    async (tx) => {
      const box = await findThing(tx, containerId);
      return {
        name: "boxcheck.record",
        locationId: box.locationId,
        args: { ...body, id, containerId, at: body.at ?? new Date().toISOString() },
      };
    },
    (tx) => findBoxCheck(tx, id),
  );
}

export function listBoxChecks({ db }: ServiceDeps, actor: Actor, thingId: string, q: { limit: number; cursor?: string | undefined }) {
  return withActor(db, actor, async (tx) => {
    return thingBoxChecks(tx, await findThing(tx, thingId), q);
  });
}
