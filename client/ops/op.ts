/**
 * What one op is on the device, in one file per op (client/ops/<domain>/<op name>.ts): its args
 * (the shared schema, sync/ops.ts), the shapes its effect shows up on, how it shows at once on each
 * view the device keeps (the optimistic apply) and how the sync screen and a sync_drop name it;
 * next to nothing else. The functions that queue ops sit in one file per domain beside them
 * (client/ops/<domain>/queue.ts; enqueueRegistry is client/sync/registry-enqueue.ts): queueing
 * goes through the outbox, whose checks replay ops through index.ts, so an op file that queued
 * would import itself in a circle. The views an apply changes are types of rows (views.ts), so
 * the sync modules that replay ops over them import this table, never the other way round.
 * index.ts is the one table that optimistic.ts, meter-overlay.ts, loan-ops.ts, move-ops.ts,
 * optimistic-registries.ts, the outbox's shapes and the sync screen look ops up in.
 */
import type { Op, OpName } from "../../sync/ops.js";
import type { SyncedTableName, ThingRow } from "../db/rows.js";
import type { LoanState, LocalState, MeterState, MoveState, RegistryState } from "./views.js";

export type OpOf<N extends OpName> = Extract<Op, { name: N }>;

/**
 * The catalogue lookup a label needs: I18n's `t`, narrowed to the ops' own keys (`op.<name>`) so
 * this file needs nothing of the React catalogue (the service worker's pusher reaches it). Handing
 * `t` over checks that the catalogue has every one of them.
 */
export type Translate = (key: `op.${OpName}`) => string;

/** What the registry views need besides the op: the owner account of a location, and the things a template is saved from. */
export interface RegistryContext {
  accountOf: (locationId: string) => string | undefined;
  things: (id: string) => ThingRow | undefined;
}

/** What the loans view needs besides the op: a member's name, for a loan made to a member. */
export interface LoanContext {
  memberName: (userId: string) => string;
}

/**
 * The op on each view it changes (mutating the view's maps; rows are replaced, never edited).
 * A view the op does not change has no entry: its screen reads what the server sends.
 */
export interface Appliers<O> {
  /** Things, places, inbox items and the templates of the things screens (optimistic.ts). */
  local?: (state: LocalState, op: O) => void;
  /** Types, fields, place kinds, brands, tags, templates (optimistic-registries.ts). */
  registries?: (state: RegistryState, op: O, ctx: RegistryContext) => void;
  /** Meters and readings (meter-overlay.ts). */
  meters?: (state: MeterState, op: O) => void;
  /** Loans and contacts (loan-ops.ts). */
  loans?: (state: LoanState, op: O, ctx: LoanContext) => void;
  /** Moves and their boxes (move-ops.ts). */
  moves?: (state: MoveState, op: O) => void;
}

export type View = keyof Appliers<Op>;

export interface OpDefinition<N extends OpName> {
  name: N;
  /** Shapes on which its effect shows up: where its txid arrives (sync/SPEC.md PU7) and which the pusher reads again. */
  shapes: readonly SyncedTableName[];
  apply: Appliers<OpOf<N>>;
  /** How the sync screen and a sync_drop item name it. */
  label: (op: OpOf<N>, t: Translate) => string;
}

export const defineOp = <N extends OpName>(def: OpDefinition<N>): OpDefinition<N> => def;
