/**
 * Optimistic apply: what the screens show is the server's rows (from shapes) with the device's own
 * outbox ops replayed on top, in push order. Server rows are never edited locally, so dropping an
 * op's optimistic copy (a `dropped` verdict, or its txid arriving on a shape: sync/SPEC.md PU7) is
 * just removing the op from the outbox. Each op's own apply is in its file (client/ops/); this is
 * the things, places and inbox view they apply to. Pure functions: no Dexie, no clock.
 */
import type { Op } from "../../sync/ops.js";
import type { TemplateShapeRow } from "../../sync/shape-rows.js";
import type { InboxRow, PlaceRow, ThingRow } from "../db/rows.js";
import { applierOf } from "../ops/index.js";
import type { LocalState } from "../ops/views.js";

export type { View } from "../ops/rows.js";

export type { LocalState } from "../ops/views.js";

/** Replays ops (in push order) over server rows. */
export function overlay(
  server: { things?: ThingRow[]; places?: PlaceRow[]; inbox?: InboxRow[]; templates?: TemplateShapeRow[] },
  ops: Op[],
  straightIn?: ReadonlySet<string>,
): LocalState {
  const state: LocalState = {
    ...(straightIn ? { straightIn } : {}),
    things: new Map((server.things ?? []).map((r) => [r.id, r])),
    places: new Map((server.places ?? []).map((r) => [r.id, r])),
    inbox: new Map((server.inbox ?? []).map((r) => [r.id, r])),
    templates: new Map((server.templates ?? []).map((r) => [r.id, r])),
  };
  for (const op of ops) applierOf(op, "local")?.(state, op);
  return state;
}
