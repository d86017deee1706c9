/**
 * The shape of every service write: one actor transaction that finds what the command needs (the
 * row's location, usually), runs the command with the executor's runOne and reads the answer back,
 * so a REST write or MCP tool call costs one BEGIN/COMMIT and answers what it committed.
 */
import { type Actor, withActor } from "../db/actor.js";
import type { Applied } from "../commands/executor.js";
import type { CommandInput } from "../commands/types.js";
import type { Tx } from "../db/client.js";
import type { WriteResult } from "../../shared/writes.js";
import type { Written } from "../http/route.js";
import type { ServiceDeps } from "./deps.js";
import { runOne } from "./registry.js";

/**
 * How a service runs commands beyond writeOne: a batch (executeInTx, the CSV import) or a system
 * command after its own check (runSystem, executeSystem: location delete, invites, jobs). Services
 * reach the registry-bound executor here, never registry.ts itself, which imports their commands.
 */
export { executeInTx, executeSystem, runSystem } from "./registry.js";

/** The answer of a write whose row is gone from reads (a tombstone): the verdict itself. */
export const writeResult = async (_tx: Tx, v: Applied): Promise<WriteResult> => ({
  id: v.entityId,
  rowVersion: v.rowVersion,
  txid: v.txid,
  eventId: v.eventId,
});

export function writeOne<T>(
  { db, undoWindowMs }: ServiceDeps,
  actor: Actor,
  command: (tx: Tx) => CommandInput | Promise<CommandInput>,
  readBack: (tx: Tx, verdict: Applied) => Promise<T>,
): Promise<Written<T>> {
  return withActor(db, actor, async (tx) => {
    const verdict = await runOne(tx, actor, await command(tx), { undoWindowMs });
    return { result: await readBack(tx, verdict), txid: verdict.txid };
  });
}
