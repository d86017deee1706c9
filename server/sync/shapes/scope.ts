/**
 * The actor's scope for a shape, and the handle that names it (sync/SPEC.md SH4): it changes
 * whenever what the shape may hold changes, and never comes back once replaced, because it ends
 * in the latest change time of the actor's memberships and folds in each location's scope_version.
 */
import { createHash } from "node:crypto";
import { visibleLocations } from "../../access/visible.js";
import type { Actor } from "../../db/actor.js";
import { type Tx, rows, sql } from "../../db/client.js";
import type { ShapeDef } from "./definitions.js";

export interface Scope {
  handle: string;
  /** Locations whose money custom fields the actor may not see. */
  moneyHidden: string[];
  /**
   * Everything that decides what a log read of this shape holds, and nothing of who asks: the
   * shape and its columns, the readable locations (the registries' accounts follow from them),
   * where money is hidden, and the user for a shape whose rows depend on who reads them
   * (memberships carry only the actor's own). Open SSE streams with the same key and position
   * share one read and one serialized chunk (live-streams.ts); a key coarser than this would leak.
   */
  contentKey: string;
}

/** A shape whose filter or liveness reads the actor (`app_user_id()`, ...) is per user. */
const perUser = (shape: ShapeDef) => /\bapp_/.test(`${shape.filter} ${shape.live}`);

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
  const moneyHidden = visible.filter((v) => !v.seesMoney).map((v) => v.location.id);
  const content = [
    shape.name,
    shape.columns.map((c) => c.name).join(","),
    perUser(shape) ? actor.userId : "",
    visible.map((v) => v.location.id).join(","),
    moneyHidden.join(","),
  ].join("|");
  return {
    handle: `${hash}-${changed}`,
    moneyHidden,
    contentKey: createHash("sha256").update(content).digest("hex"),
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
