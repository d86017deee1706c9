/**
 * The one write path (DESIGN.md "One write path"). Every change to the inventory is a command: a
 * name, zod-validated args, the location it touches and, for updates, the rowVersion the writer
 * last saw. A REST write is a batch of one; a pushed sync batch is many. Handlers work set-based:
 * they receive every op of a segment at once and answer one verdict per op, in order.
 */
import type { z } from "zod";
import type { Role } from "../../shared/roles.js";
import type { Actor } from "../db/actor.js";
import type { Tx } from "../db/client.js";
import type { AppError } from "../errors/classes.js";

export interface CommandInput {
  /** Device-made op id (sync push); REST writes have none. */
  opId?: string;
  name: string;
  locationId: string;
  args: unknown;
  /** The rowVersion the writer last saw; absent (or undefined) means no check (sync/SPEC.md VE4, VE6). */
  baseVersion?: number | undefined;
  /** When the op was made on the device (ISO string); history records the server time. */
  at?: string;
  /** Pushed ops merge a stale baseVersion field by field (sync/SPEC.md VE3); REST is strict (VE6). */
  merge?: boolean;
}

export type Verdict =
  { status: "applied"; entityId: string; rowVersion: number; txid: string; eventId: string | null } | { status: "rejected"; error: AppError };

export interface CommandContext {
  tx: Tx;
  actor: Actor;
  /** The transaction id as the shape stream shows it in `txids` (32-bit xid as a string). */
  txid: string;
  now: Date;
  /** The actor's role in each location it can see (after 2FA gating and token scope). */
  roles: Map<string, Role>;
  /** The owner account of each visible location: registry ops write to the account of theirs. */
  accounts: Map<string, string>;
  undoWindowMs: number;
  /** The pushing device (PU1 `clientId`); absent for REST, MCP and jobs. Its own earlier changes are not conflicts (VE8). */
  clientId?: string;
  /**
   * False while a command with `bumpsVersion: false` runs (absent means true): SegmentChanges
   * then writes its rows without their rowVersion, whatever the handler put there.
   */
  bumpsVersion?: boolean;
}

export interface Op<A> {
  input: CommandInput;
  args: A;
}

export interface CommandDef<A = unknown> {
  name: string;
  args: z.ZodType<A>;
  /** The least role that may run the command in the op's location. */
  minRole: Role;
  /** The op creates the location it names; only the actor's own account is checked (by RLS too). */
  createsLocation?: boolean;
  /**
   * The row the op targets. Two ops on the same target never share a segment, so that a
   * set-based statement never sees one row twice and order within the batch is kept.
   * defineCommand makes it the args' `id` where the command does not say.
   */
  target(args: A): string;
  /** Rows the op refers to besides its target (a parent place, a container). */
  refs?(args: A): (string | null | undefined)[];
  /** The op creates its target: if it is dropped, later ops on that row are dropped too (DR4). */
  creates?: boolean;
  /**
   * A system command: the server's own write, with the service's authority (a job applying an AI
   * reading or raising a nudge, or an act whose authority the caller checked first, as an invite
   * or the owner's confirmed delete). Only Executor.runSystem runs one; push, REST and MCP, which
   * run ops a request sent, refuse it as unknown. Its minRole is not checked.
   */
  system?: boolean;
  /**
   * False where the write must not bump the rows' rowVersion: the server's proposal (an AI
   * reading, a nudge's bookkeeping), not a person's edit, so a device's pending op made against
   * the older version still applies instead of meeting a conflict with a machine. The core
   * honours it (CommandContext.bumpsVersion, SegmentChanges).
   */
  bumpsVersion?: boolean;
  run(ctx: CommandContext, ops: Op<A>[]): Promise<Verdict[]>;
}

/**
 * A command as its module writes it: `target` may be left out where the op targets the row its
 * args name by `id` (most commands); args without an `id` must say their target.
 */
export type CommandSpec<A> = Omit<CommandDef<A>, "target"> &
  ([A] extends [{ id: string }] ? { target?: (args: A) => string } : { target: (args: A) => string });

const byId = (args: unknown): string => (args as { id: string }).id;

export function defineCommand<A>(def: CommandSpec<A>): CommandDef<A> {
  return { target: byId, ...def };
}

/** Commands by name: what the executor resolves an op's name in (server/modules/registry.ts). */
export type CommandRegistry = ReadonlyMap<string, CommandDef<unknown>>;

/** A registry of `defs`; two commands of one name are a programming error. */
export function commandRegistryOf<T extends unknown[]>(defs: { [K in keyof T]: CommandDef<T[K]> }): CommandRegistry {
  const registry = new Map<string, CommandDef<unknown>>();
  for (const def of defs as CommandDef<unknown>[]) {
    if (registry.has(def.name)) throw new Error(`two commands are named ${def.name}`);
    registry.set(def.name, def);
  }
  return registry;
}

export const applied = (ctx: CommandContext, entityId: string, rowVersion: number, eventId: string | null): Verdict => ({
  status: "applied",
  entityId,
  rowVersion,
  txid: ctx.txid,
  eventId,
});

export const rejected = (error: AppError): Verdict => ({ status: "rejected", error });
