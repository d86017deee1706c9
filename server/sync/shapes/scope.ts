/**
 * The actor's scope for a shape, and the handle that names it (sync/SPEC.md SH4): it changes
 * whenever what the shape may hold changes, and never comes back once replaced, because it ends
 * in the latest change time of the actor's memberships and folds in each location's scope_version.
 */
import { createHash } from "node:crypto";
import type { Actor } from "../../auth/actor.js";
import { type Tx, rows, sql } from "../../db/client.js";
import type { ShapeDef } from "./definitions.js";

export interface Scope {
  handle: string;
  /** Locations whose money custom fields the actor may not see. */
  moneyHidden: string[];
}

export async function shapeScope(tx: Tx, actor: Actor, shape: ShapeDef): Promise<Scope> {
  const visible = await rows<{ location_id: string; role: string; viewers_see_money: boolean; scope_version: number }>(
    tx,
    sql`SELECT m.location_id, m.role, l.viewers_see_money, l.scope_version
        FROM memberships m JOIN locations l ON l.id = m.location_id
        WHERE m.user_id = app_user_id() AND m.deleted_at IS NULL AND m.location_id = ANY (app_readable_locations())
        ORDER BY m.location_id`,
  );
  const [{ changed }] = (await rows<{ changed: string }>(
    tx,
    sql`SELECT coalesce((extract(epoch FROM max(updated_at)) * 1000000)::bigint, 0)::text AS changed FROM memberships WHERE user_id = app_user_id()`,
  )) as [{ changed: string }];
  const fingerprint = [
    shape.name,
    actor.userId,
    actor.mfaProven ? "mfa" : "no-mfa",
    actor.locationScope?.join(",") ?? "*",
    ...visible.map((v) => `${v.location_id}:${v.role}:${v.viewers_see_money}:${v.scope_version}`),
  ].join("|");
  const hash = createHash("sha256").update(fingerprint).digest("hex").slice(0, 16);
  return {
    handle: `${hash}-${changed}`,
    moneyHidden: visible.filter((v) => v.role === "viewer" && !v.viewers_see_money).map((v) => v.location_id),
  };
}
