/**
 * The actor's scope for a shape, and the handle that names it (sync/SPEC.md SH4): it changes
 * whenever what the shape may hold changes, and never comes back once replaced, because it ends
 * in the latest change time of the actor's memberships and folds in each location's scope_version.
 */
import { createHash } from "node:crypto";
import { visibleLocations } from "../../access/visible.js";
import type { Actor } from "../../auth/actor.js";
import { type Tx, rows, sql } from "../../db/client.js";
import type { ShapeDef } from "./definitions.js";

export interface Scope {
  handle: string;
  /** Locations whose money custom fields the actor may not see. */
  moneyHidden: string[];
}

export async function shapeScope(tx: Tx, actor: Actor, shape: ShapeDef): Promise<Scope> {
  // By id, as the handle has always been made: a handle must not change unless the scope does.
  const visible = (await visibleLocations(tx)).sort((a, b) => (a.location.id < b.location.id ? -1 : a.location.id > b.location.id ? 1 : 0));
  const [{ changed }] = (await rows<{ changed: string }>(
    tx,
    sql`SELECT coalesce((extract(epoch FROM max(updated_at)) * 1000000)::bigint, 0)::text AS changed FROM memberships WHERE user_id = app_user_id()`,
  )) as [{ changed: string }];
  const fingerprint = [
    shape.name,
    // The columns: a device holding rows of an older table layout refetches (409 must-refetch).
    shape.columns.map((c) => c.name).join(","),
    actor.userId,
    actor.mfaProven ? "mfa" : "no-mfa",
    actor.locationScope?.join(",") ?? "*",
    ...visible.map((v) => `${v.location.id}:${v.role}:${v.location.viewersSeeMoney}:${v.location.scopeVersion}`),
  ].join("|");
  const hash = createHash("sha256").update(fingerprint).digest("hex").slice(0, 16);
  return {
    handle: `${hash}-${changed}`,
    moneyHidden: visible.filter((v) => !v.seesMoney).map((v) => v.location.id),
  };
}
