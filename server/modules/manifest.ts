/**
 * What a domain module brings to the app, declared once in its folder's manifest.ts: its routes,
 * the commands the write core runs, its periodic jobs and queue workers, the inbox kinds, shapes and
 * kinds of id it owns. server/modules/index.ts lists the manifests; the route table, the command
 * registry and the job schedule are composed from that list (docs/develop/adding-a-module.md).
 */
import type { Logger } from "pino";
import type { InboxKind } from "../../shared/inbox.js";
import type { ShapeName } from "../../sync/shapes.js";
import type { Auth } from "../auth/auth.js";
import type { SignInLimits } from "../auth/limits.js";
import type { CommandDef } from "../commands/types.js";
import type { Config } from "../config.js";
import type { Database, Db } from "../db/client.js";
import type { RouteDef, RouteDeps } from "../http/route.js";
import type { Mailer } from "../mail/mailer.js";
import type { ServiceDeps } from "./deps.js";

/**
 * What every module's routes and jobs may use, filled in by the composition root (server/services.ts).
 * What only some modules need and a module makes (the blob store, the setup code, the token hasher)
 * is added by the manifest that asks for it (`defineModule<ModuleDeps & { store: BlobStore }>`), and
 * server/modules/index.ts names the whole bag, so this file imports no module.
 */
export interface ModuleDeps extends RouteDeps {
  db: Db;
  /** The pool itself, for what keeps its own connections (rate limiters in PostgreSQL). */
  database: Database;
  config: Config;
  auth: Auth;
  logger: Logger;
  /** Sign-in limits, shared by every route that counts failures. */
  limits: SignInLimits;
  mailer: Mailer;
  /** What the modules' services run with (./deps.ts serviceDeps), made once here rather than by each route factory. */
  service: ServiceDeps;
}

/** A periodic job or a queue worker: started with the deps, stopped (and drained) by what `start` answers. */
export interface ModuleJob<D extends ModuleDeps = ModuleDeps> {
  name: string;
  start(deps: D): () => void | Promise<void>;
}

/** A domain's manifest; only `name` is required, a module declares what it has. */
export interface ModuleManifest<D extends ModuleDeps = ModuleDeps> {
  /** The folder's name under server/modules/. */
  name: string;
  routes?: (deps: D) => RouteDef[];
  /** The write core's commands this module defines; a new command is added to this list (each has its own args, hence `any`). */
  commands?: readonly CommandDef<any>[];
  jobs?: readonly ModuleJob<D>[];
  /** Inbox kinds whose items this module raises (shared/inbox.ts INBOX_KINDS); each kind has one owner. */
  inboxKinds?: readonly InboxKind[];
  /** Shapes (sync/shapes.ts) of the tables this module owns; each shape has one owner. */
  shapes?: readonly ShapeName[];
  /** The kinds of id its routes take, by the names the hostile suites use (test/support/hostile/). */
  idKinds?: readonly string[];
}

/** A manifest, typed: the identity, so that a module's manifest.ts reads as a declaration. */
export const defineModule = <D extends ModuleDeps = ModuleDeps>(manifest: ModuleManifest<D>): ModuleManifest<D> => manifest;

/** A queue worker as a job: `start` answers the running worker (or null: none in this process), whose stop drains it. */
export function workerJob<D extends ModuleDeps = ModuleDeps>(name: string, start: (deps: D) => { stop(): void | Promise<void> } | null): ModuleJob<D> {
  return {
    name,
    start(deps) {
      const worker = start(deps);
      return async () => {
        await worker?.stop();
      };
    },
  };
}

const HOUR = 3600_000;

/**
 * A job that runs once at start and then every `everyMs` (an hour unless said): `run` does its
 * work and logs what it did; a failure is logged as `failed` and the next round tries again.
 */
export function periodicJob<D extends ModuleDeps = ModuleDeps>(name: string, failed: string, run: (deps: D) => Promise<void>, everyMs = HOUR): ModuleJob<D> {
  return {
    name,
    start(deps) {
      const once = async () => {
        try {
          await run(deps);
        } catch (err) {
          deps.logger.error({ err }, failed);
        }
      };
      void once();
      const timer = setInterval(() => void once(), everyMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
