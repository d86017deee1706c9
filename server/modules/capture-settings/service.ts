/**
 * A person's capture settings in one location: read where they can see the location, set where
 * they may capture (member and up). Rows are the person's own (RLS on capture_settings); a
 * location they cannot see is 404 either way.
 */
import type { CaptureSettings } from "../../../shared/capture-settings.js";
import { locationAccess } from "../../access/location.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { requirePerson, requireWriteRole } from "../../access/role.js";
import { saveStraightIn, straightInOf } from "./repository.js";

/** Settings are a person's own choice on their devices: never a token's or an MCP grant's. */
function personOnly(actor: Actor): Actor {
  return requirePerson(actor, "Capture settings are kept for a signed-in session only.");
}

export function getCaptureSettings(db: Db, actor: Actor, locationId: string): Promise<CaptureSettings> {
  return withActor(db, personOnly(actor), async (tx) => {
    await locationAccess(tx, locationId);
    return { straightIn: await straightInOf(tx, actor.userId, locationId) };
  });
}

export function putCaptureSettings(db: Db, actor: Actor, locationId: string, body: CaptureSettings): Promise<CaptureSettings> {
  return withActor(db, personOnly(actor), async (tx) => {
    const { role } = await locationAccess(tx, locationId);
    // Viewers do not capture, so they have nothing to let in.
    requireWriteRole(actor, role, "member", `Your role (${role}) cannot capture here, so it has no capture settings.`);
    return { straightIn: await saveStraightIn(tx, actor.userId, locationId, body.straightIn, new Date()) };
  });
}
