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

/**
 * A handle of this scope: its own, or one made for a reader of it after compaction (sync/SPEC.md
 * SH10). The Electric client takes a handle it refetched under, and one it saw before, for a stale
 * cache answer, so such a reader gets a handle it never held, of the same scope; the server then
 * answers it under the handle it holds.
 */
export function isHandleOf(scope: Scope, handle: string | undefined): handle is string {
  if (handle === undefined || !handle.startsWith(scope.handle)) return false;
  return handle.length === scope.handle.length || /^-[rs]\d+$/.test(handle.slice(scope.handle.length));
}

/** The handle a reader behind the horizon refetches under: new, since the horizon only grows past its offset. */
export const horizonHandle = (scope: Scope, horizon: number) => `${scope.handle}-r${horizon}`;

/**
 * The handle of a snapshot for a client that marked a handle of this scope expired (it sends it as
 * `expired_handle`): new, since a reader refetches only once the log went past its snapshot's head.
 */
export const snapshotHandle = (scope: Scope, head: number) => `${scope.handle}-s${head}`;
