/**
 * Runs a batch of commands in one transaction as the actor: validate, authorize (deny by default),
 * then hand consecutive ops of the same command to its handler as one set-based segment. A segment
 * whose statement fails is retried op by op under savepoints, so one bad op cannot sink the rest.
 * The write core knows no domain: the commands come in a registry (server/modules/registry.ts
 * binds them with createExecutor).
 */
import type { Role } from "../../shared/roles.js";
import { findIllFormedText } from "../../shared/text.js";
import { readOnlyRefusal, writeRefusal } from "../access/may-write.js";
import { rolesFromJson, visibleAccountsJson, visibleRolesJson } from "../access/visible.js";
import { type Actor, withActor } from "../db/actor.js";
import { type Db, type Tx, namedRows, sql } from "../db/client.js";
import { AppError, DependsOnDroppedError, ForbiddenError, LocationNotVisibleError, NotFoundError, UnknownCommandError } from "../errors/classes.js";
import { dbErrorToAppError } from "../errors/database.js";
import { illFormedTextError, zodToValidationError } from "../errors/zod.js";
import { rejected, type CommandContext, type CommandDef, type CommandInput, type CommandRegistry, type Op, type Verdict } from "./types.js";

export interface ExecuteOptions {
  undoWindowMs: number;
  /**
   * False only for a batch of one whose rejection ends the transaction (a REST write): a failing
   * statement then aborts the transaction instead of rolling back to a savepoint, two round trips
   * fewer per write.
   */
  savepoints?: boolean;
  /** loadContext(tx), already under way. */
  context?: Promise<BatchContext>;
  /**
   * The command names this caller may run; others are refused as unknown. Push passes the ops of
   * sync/ops.ts, so internal commands (file records) are reachable only through their own routes.
   */
  accepts?: (name: string) => boolean;
  /** The pushing device (PU1 `clientId`), for push only. */
  clientId?: string;
}

export interface BatchContext {
  txid: string;
  roles: Map<string, Role>;
  /** The owner account of each visible location (whose registries its ops use). */
  accounts: Map<string, string>;
}

/**
 * The transaction id and the actor's role in each visible location (server/access/visible.ts), in
 * one round trip. A caller with a query of its own to make first may start this one ahead of it
 * (ExecuteOptions.context).
 */
async function currentTxid(tx: Tx): Promise<string> {
  const [row] = await namedRows<{ txid: string }>(tx, "system_txid", sql`SELECT pg_current_xact_id()::xid::text AS txid`);
  if (!row) throw new Error("no transaction id");
  return row.txid;
}

export async function loadContext(tx: Tx): Promise<BatchContext> {
  const [row] = await namedRows<{ txid: string; roles: Record<string, Role> | null; accounts: Record<string, string> | null }>(
    tx,
    "batch_context",
    sql`SELECT pg_current_xact_id()::xid::text AS txid, ${visibleRolesJson} AS roles, ${visibleAccountsJson} AS accounts`,
  );
  if (!row) throw new Error("no transaction id");
  return { txid: row.txid, roles: rolesFromJson(row.roles), accounts: new Map(Object.entries(row.accounts ?? {})) };
}

interface Prepared {
  index: number;
  def: CommandDef<unknown>;
  op: Op<unknown>;
}

/**
 * Most ops in one segment. A handler's work between its queries runs on the event loop in one
 * stretch, and a 1000-op segment held every other request (a /health p99 above 100 ms during a
 * push storm on PostgreSQL); a few more round trips per batch cost far less.
 */
export const SEGMENT_MAX_OPS = 250;

/** Splits ops into runs of one command with no target repeated, at most SEGMENT_MAX_OPS long, keeping batch order. */
function segments(prepared: Prepared[]): Prepared[][] {
  const out: Prepared[][] = [];
  let current: Prepared[] = [];
  let targets = new Set<string>();
  for (const p of prepared) {
    const target = p.def.target(p.op.args);
    const head = current[0];
    if (head && (head.def !== p.def || targets.has(target) || current.length >= SEGMENT_MAX_OPS)) {
      out.push(current);
      current = [];
      targets = new Set();
    }
    current.push(p);
    targets.add(target);
  }
  if (current.length) out.push(current);
  return out;
}

/**
 * Sends a query now and leaves it running while other work goes on; its failure is seen where
 * the result is awaited. (A drizzle query runs again at each `then`: this calls it once.)
 */
function inFlight<T>(query: PromiseLike<T>): Promise<T> {
  const running = new Promise<T>((resolve, reject) => query.then(resolve, reject));
  running.catch(() => undefined);
  return running;
}

/**
 * Savepoints of segments that succeeded and are not released yet. Each is released (RELEASE sent,
 * not waited for on its own) when the next segment starts; the last one stays open until the
 * commit, which takes it along. `pending` collects the releases for the batch to wait for once.
 */
interface Savepoints {
  open: number;
  pending: Promise<unknown>[];
}

function releaseOpen(ctx: CommandContext, sp: Savepoints): void {
  for (; sp.open > 0; sp.open--) sp.pending.push(inFlight(ctx.tx.execute(sql`RELEASE SAVEPOINT segment`)));
}

/**
 * Runs one segment, under a savepoint unless `sp` is null (a batch of one: no savepoint at all).
 * SAVEPOINT goes out ahead of the segment's first query without a round trip of its own.
 */
async function runSegment(batch: CommandContext, seg: Prepared[], sp: Savepoints | null): Promise<Verdict[]> {
  const def = seg[0]!.def;
  const ctx = def.bumpsVersion === false ? { ...batch, bumpsVersion: false } : batch;
  if (!sp) {
    try {
      return await def.run(
        ctx,
        seg.map((p) => p.op),
      );
    } catch (err) {
      return [rejected(dbErrorToAppError(err))];
    }
  }
  releaseOpen(ctx, sp);
  const savepoint = inFlight(ctx.tx.execute(sql`SAVEPOINT segment`));
  try {
    const verdicts = await def.run(
      ctx,
      seg.map((p) => p.op),
    );
    await savepoint;
    sp.open = 1;
    return verdicts;
  } catch (err) {
    await savepoint;
    await ctx.tx.execute(sql`ROLLBACK TO SAVEPOINT segment`);
    if (seg.length === 1) {
      await ctx.tx.execute(sql`RELEASE SAVEPOINT segment`);
      return [rejected(dbErrorToAppError(err))];
    }
  }
  // The set-based statement failed: isolate the failing op(s) one at a time, each under a
  // savepoint of its own inside this segment's (which stays open, as after a success).
  const verdicts: Verdict[] = [];
  for (const p of seg) verdicts.push(...(await runSegment(ctx, [p], sp)));
  releaseOpen(ctx, sp);
  sp.open = 1;
  return verdicts;
}

/** The actor of a system command no person asked for (a job): its history names no one. */
export const SYSTEM_ACTOR: Actor = { type: "system", userId: "", displayName: "", mfaProven: false, locationScope: null, canWrite: true };

/**
 * Runs `inputs` inside an already-open transaction, resolving their names in `registry`. A
 * request's ops (`system` false, in an actor transaction) never reach a system command; system
 * ops (in a transaction with the service's authority) reach only system commands and skip the
 * role check: their caller holds the authority (CommandDef.system).
 */
async function executeInTx(registry: CommandRegistry, tx: Tx, actor: Actor, inputs: CommandInput[], opts: ExecuteOptions, system = false): Promise<Verdict[]> {
  const savepoints = opts.savepoints ?? true;
  if (!savepoints && inputs.length > 1) throw new Error("a batch of more than one op needs savepoints");
  const { txid, roles, accounts } = system
    ? { txid: await currentTxid(tx), roles: new Map<string, Role>(), accounts: new Map<string, string>() }
    : await (opts.context ?? loadContext(tx));
  const ctx: CommandContext = {
    tx,
    actor,
    txid,
    now: new Date(),
    roles,
    accounts,
    undoWindowMs: opts.undoWindowMs,
    ...(opts.clientId !== undefined ? { clientId: opts.clientId } : {}),
  };
  const verdicts: Verdict[] = new Array<Verdict>(inputs.length);
  const prepared: Prepared[] = [];
  // Rows whose create was refused in this batch, and by which op (sync/SPEC.md DR4).
  const droppedCreates = new Map<string, string | undefined>();
  const refuse = (index: number, def: CommandDef<unknown> | undefined, input: CommandInput, error: AppError) => {
    verdicts[index] = rejected(error);
    // The args as sent (they may not parse): the id in the one case parsed args hold (shared/ids.ts).
    const id = (input.args as { id?: unknown } | null)?.id;
    if (def?.creates && typeof id === "string") droppedCreates.set(id.toLowerCase(), input.opId);
  };
  inputs.forEach((input, index) => {
    const found = opts.accepts && !opts.accepts(input.name) ? undefined : registry.get(input.name);
    const def = found && !found.system === !system ? found : undefined;
    if (!def) return refuse(index, def, input, new UnknownCommandError(input.name));
    const parsed = def.args.safeParse(input.args);
    if (!parsed.success) return refuse(index, def, input, zodToValidationError(parsed.error));
    // Text the database cannot keep is refused whichever schema let it through (shared/text.ts).
    const bad = findIllFormedText(parsed.data);
    if (bad) return refuse(index, def, input, illFormedTextError(bad, "args"));
    if (system) return void prepared.push({ index, def, op: { input, args: parsed.data } });
    if (def.createsLocation) {
      if (actor.type !== "user") refuse(index, def, input, new ForbiddenError("Only a signed-in person can create a location."));
      else if (!actor.canWrite) refuse(index, def, input, readOnlyRefusal(actor, "create a location")!);
      else prepared.push({ index, def, op: { input, args: parsed.data } });
      return;
    }
    const role = roles.get(input.locationId);
    // Deny by default; a location the actor cannot see reads as "not found".
    if (!role) return refuse(index, def, input, new LocationNotVisibleError());
    const refused = writeRefusal(actor, role, def.minRole, `do "${def.name}"`);
    if (refused) return refuse(index, def, input, refused);
    prepared.push({ index, def, op: { input, args: parsed.data } });
  });
  const sp: Savepoints | null = savepoints ? { open: 0, pending: [] } : null;
  const dependency = (p: Prepared) => {
    if (!droppedCreates.size) return null;
    for (const id of [p.def.target(p.op.args), ...(p.def.refs?.(p.op.args) ?? [])]) if (id && droppedCreates.has(id)) return id;
    return null;
  };
  for (const seg of segments(prepared)) {
    const runnable: Prepared[] = [];
    for (const p of seg) {
      const dep = dependency(p);
      if (dep !== null) verdicts[p.index] = rejected(new DependsOnDroppedError(droppedCreates.get(dep)));
      else runnable.push(p);
    }
    const result = runnable.length ? await runSegment(ctx, runnable, sp) : [];
    runnable.forEach((p, i) => {
      let v = result[i]!;
      // An op that failed because an earlier op of the same segment was refused depends on it.
      const dep = v.status === "rejected" && v.error instanceof NotFoundError ? dependency(p) : null;
      if (dep !== null) v = rejected(new DependsOnDroppedError(droppedCreates.get(dep)));
      verdicts[p.index] = v;
      if (v.status === "rejected" && p.def.creates) droppedCreates.set(p.def.target(p.op.args), p.op.input.opId);
    });
  }
  if (sp) await Promise.all(sp.pending);
  return verdicts;
}

export type Applied = Extract<Verdict, { status: "applied" }>;

/** The write path over one registry of commands: what services, push and MCP tools call. */
export interface Executor {
  /** Runs `inputs` inside an already-open actor transaction. */
  executeInTx: (tx: Tx, actor: Actor, inputs: CommandInput[], opts: ExecuteOptions) => Promise<Verdict[]>;
  /** Runs `inputs` in a transaction of their own as the actor. */
  executeBatch: (db: Db, actor: Actor, inputs: CommandInput[], opts: ExecuteOptions) => Promise<Verdict[]>;
  /**
   * A service's write (one REST write or MCP tool call): one command inside the actor transaction
   * the service opened, where it also finds the row's location first and reads the answer back
   * after, so the whole write is one transaction. A batch of one runs without savepoints: a
   * rejection is thrown as its error and aborts the transaction, nothing half-done can commit.
   */
  runOne: (tx: Tx, actor: Actor, input: CommandInput, opts: ExecuteOptions) => Promise<Applied>;
  /**
   * System commands (CommandDef.system) inside a transaction with the service's authority
   * (asSystem), as `actor`: the person the caller has authorised (an invite's user, a location's
   * confirmed owner), or SYSTEM_ACTOR for a job. One verdict per input, as executeInTx.
   */
  executeSystem: (tx: Tx, actor: Actor, inputs: CommandInput[], opts: ExecuteOptions) => Promise<Verdict[]>;
  /** One system command; a rejection is thrown as its error, as runOne. */
  runSystem: (tx: Tx, actor: Actor, input: CommandInput, opts: ExecuteOptions) => Promise<Applied>;
}

function appliedOrThrow(verdict: Verdict | undefined): Applied {
  if (!verdict) throw new Error("executor returned no verdict");
  if (verdict.status === "rejected") throw verdict.error;
  return verdict;
}

export function createExecutor(registry: CommandRegistry): Executor {
  const inTx = (tx: Tx, actor: Actor, inputs: CommandInput[], opts: ExecuteOptions) => executeInTx(registry, tx, actor, inputs, opts);
  return {
    executeInTx: inTx,
    executeBatch: (db, actor, inputs, opts) => withActor(db, actor, (tx) => inTx(tx, actor, inputs, opts)),
    runOne: async (tx, actor, input, opts) => appliedOrThrow((await inTx(tx, actor, [input], { ...opts, savepoints: false }))[0]),
    executeSystem: (tx, actor, inputs, opts) => executeInTx(registry, tx, actor, inputs, opts, true),
    runSystem: async (tx, actor, input, opts) => appliedOrThrow((await executeInTx(registry, tx, actor, [input], { ...opts, savepoints: false }, true))[0]),
  };
}
