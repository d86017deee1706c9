/**
 * The command registry and the write core bound to it. Sync ops and REST routes both resolve here;
 * push narrows it to the ops of sync/ops.ts (its `accepts`). The commands are the modules'
 * (each manifest's `commands`): the composition root installs them from server/modules/index.ts
 * (server/services.ts), since this file stands under every service that writes and so cannot import
 * the manifests, which import those services' routes. A write before the install is a programming
 * error and says so. System commands (the server's own writes: jobs, and acts whose authority the
 * caller checked) run only through executeSystem/runSystem, from a transaction with the service's
 * authority; the request path refuses them.
 */
import { OP_NAMES } from "../../sync/ops.js";
import { OP_MIN_ROLE } from "../../sync/op-rules.js";
import { createExecutor, type Executor } from "../commands/executor.js";
import { commandRegistryOf, type CommandDef, type CommandRegistry } from "../commands/types.js";

let installed: { registry: CommandRegistry; executor: Executor } | null = null;

/** Makes `defs` the registry every write resolves in (installing again replaces it: each test service does). */
export function installCommands(defs: readonly CommandDef<any>[]): CommandRegistry {
  const registry = commandRegistryOf(defs as CommandDef<unknown>[]);
  // Devices refuse an op their role cannot do before queueing it, by the table in sync/op-rules.ts:
  // a command of a pushable op that asked for another role would make them refuse wrongly (or let
  // through what is then dropped), so the server does not start with the two apart.
  for (const name of OP_NAMES) {
    const def = registry.get(name);
    if (!def || def.minRole !== OP_MIN_ROLE[name])
      throw new Error(`${name}: the command's minRole (${def?.minRole}) is not sync/op-rules.ts's (${OP_MIN_ROLE[name]})`);
    // A system command is the server's own write: never a device's op (the executor refuses it on
    // the request path anyway; this says so at start, not at the first push).
    if (def.system) throw new Error(`${name}: a system command cannot be a sync op`);
  }
  installed = { registry, executor: createExecutor(registry) };
  return registry;
}

const current = () => {
  if (!installed) throw new Error("no commands installed: the composition root (server/services.ts) installs the modules' commands first");
  return installed;
};

/** The installed registry (for the checks and tests that read it). */
export const commandRegistry = (): CommandRegistry => current().registry;

export const executeInTx: Executor["executeInTx"] = (...args) => current().executor.executeInTx(...args);
export const executeBatch: Executor["executeBatch"] = (...args) => current().executor.executeBatch(...args);
export const runOne: Executor["runOne"] = (...args) => current().executor.runOne(...args);
export const executeSystem: Executor["executeSystem"] = (...args) => current().executor.executeSystem(...args);
export const runSystem: Executor["runSystem"] = (...args) => current().executor.runSystem(...args);
