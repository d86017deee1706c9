/**
 * GET /api/v1/sync/shape/:name: the Electric HTTP shape protocol as @electric-sql/client expects
 * it (sync/SPEC.md SH1-SH7, SH9, SH10), served from our change log. The client names a shape; table,
 * columns and rows are chosen here from the actor.
 */
import type { Response } from "express";
import { z } from "zod";
import { FORBIDDEN_PARAMS, isShapeName } from "../../../sync/shapes.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Db, Tx } from "../../db/client.js";
import { NotFoundError, ValidationError } from "../../errors/classes.js";
import { defineRoute, type RouteDef, type RouteDeps } from "../../http/route.js";
import { SHAPES, type ShapeDef } from "./definitions.js";
import type { ChangeNotifier } from "./notifier.js";
import { proxyShape } from "./proxy.js";
import { logOffset, pageOffset, parseOffset, snapshotEndOffset } from "./offsets.js";
import { LiveStreams, sseChunk, upToDate } from "./live-streams.js";
import { FIRST_PAGE_ROWS, PAGE_ROWS, logBounds, readLog, readSnapshotPage, useTextForms } from "./query.js";
import { horizonHandle, isHandleOf, shapeScope, snapshotHandle, type Scope } from "./scope.js";

export const LONG_POLL_MS = 20_000;
const CURSOR_EPOCH = Date.UTC(2024, 9, 9);

/** Electric's cursor: 20 s buckets, always moving forward past the one the client sent. */
export function nextCursor(previous: string | undefined): string {
  const bucket = Math.ceil((Date.now() - CURSOR_EPOCH) / 20_000) * 20;
  const prev = Number(previous ?? "0");
  return String(Number.isFinite(prev) && bucket <= prev ? prev + 1 + Math.floor(Math.random() * 3600) : bucket);
}

export function schemaHeader(shape: ShapeDef): string {
  const out: Record<string, Record<string, unknown>> = {};
  for (const c of shape.columns) {
    out[c.name] = { type: c.type, ...(c.dims ? { dims: c.dims } : {}), ...(c.name === "id" ? { pk_index: 0 } : {}), ...(c.notNull ? { not_null: true } : {}) };
  }
  return JSON.stringify(out);
}

const querySchema = z
  .object({
    offset: z.string().regex(/^(-1|now|\d+_(\d+|inf))$/, "offset must be -1, now or an electric-offset"),
    handle: z.string().max(200).optional(),
    /** The handle the client last refetched away from (SH10). */
    expired_handle: z.string().max(200).optional(),
    live: z.enum(["true", "false"]).optional(),
    live_sse: z.enum(["true", "false"]).optional(),
    experimental_live_sse: z.enum(["true", "false"]).optional(),
    cursor: z.string().max(40).optional(),
  })
  .loose();

type Read =
  | { kind: "refetch"; handle: string }
  /** A snapshot page; `next` is its electric-offset (another page, or the snapshot's end). */
  | { kind: "snapshot"; handle: string; body: string; next: string }
  | { kind: "log"; handle: string; contentKey: string; messages: string[]; last: number; more: boolean; head: number };

async function readOnce(db: Db, actor: Actor, shape: ShapeDef, offset: string, handle: string | undefined, expired?: string): Promise<Read> {
  const position = parseOffset(offset);
  return withActor(db, actor, async (tx) => {
    await useTextForms(tx);
    // Read before the rows: a commit landing in between shows in the rows and again in the log
    // (a harmless repeat), never in neither. And before the scope: a scope change up to `head` is
    // seen by the check below (an SSE stream counts on it, live-streams.ts).
    const { head, horizon } = await logBounds(tx);
    const scope = await shapeScope(tx, actor, shape);
    const ours = isHandleOf(scope, handle);
    if (position.kind !== "start" && !ours) return { kind: "refetch", handle: scope.handle };
    const current = ours ? handle : isHandleOf(scope, expired) ? snapshotHandle(scope, head) : scope.handle;
    // Compaction removed tombstones up to the horizon: an older position could miss a delete (SH10).
    const behind = (h: number): Read => ({ kind: "refetch", handle: horizonHandle(scope, h) });
    switch (position.kind) {
      case "start":
        return snapshotPage(tx, shape, scope, current, head, null, FIRST_PAGE_ROWS);
      case "page":
        if (position.head > head) throw new ValidationError("offset: past the end of the log; start again from -1.");
        if (position.head < horizon) return behind(horizon);
        return snapshotPage(tx, shape, scope, current, position.head, position.afterId, PAGE_ROWS);
      case "now":
        return { kind: "log", handle: current, contentKey: scope.contentKey, messages: [], last: head, more: false, head };
      case "log": {
        if (position.after > head) throw new ValidationError("offset: past the end of the log; start again from -1.");
        if (position.after < horizon) return behind(horizon);
        const log = await readLog(tx, shape, position.after, scope.moneyHidden);
        // A compaction that committed after the bounds were read shows in the log read's horizon.
        if (position.after < log.horizon) return behind(log.horizon);
        return { kind: "log", handle: current, contentKey: scope.contentKey, head, messages: log.messages, last: log.last, more: log.more };
      }
    }
  });
}

/** One page of the snapshot read at `head` (SH9): a full page may have more after it. */
async function snapshotPage(tx: Tx, shape: ShapeDef, scope: Scope, handle: string, head: number, afterId: string | null, limit: number): Promise<Read> {
  const page = await readSnapshotPage(tx, shape, scope.moneyHidden, afterId, limit);
  const next = page.rows >= limit && page.lastId ? pageOffset(head, page.lastId) : snapshotEndOffset(head);
  return { kind: "snapshot", handle, body: page.body, next };
}

function commonHeaders(res: Response, handle: string) {
  res.setHeader("electric-handle", handle);
  res.setHeader("cache-control", "private, no-store");
  res.setHeader("vary", "Cookie, Authorization");
}

export function shapeRoutes({ db, config }: RouteDeps, notifier: ChangeNotifier): RouteDef[] {
  const streams = new LiveStreams(db, notifier);
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/sync/shape/:name",
      summary: "Electric shape stream of a named shape (offset, handle, live, live_sse)",
      tag: "sync",
      params: z.object({ name: z.string().max(40) }),
      query: querySchema,
      response: z.array(z.unknown()),
      async handler({ req, res, actor, params, query }) {
        if (!isShapeName(params.name)) throw new NotFoundError("shape");
        const sent = FORBIDDEN_PARAMS.filter((p) => p in (req.query as Record<string, unknown>) || Object.keys(req.query).some((k) => k.startsWith(`${p}[`)));
        if (sent.length) throw new ValidationError(`The server chooses what a shape holds; remove ${sent.join(", ")}.`);
        const shape = SHAPES[params.name];
        if (config.electricUrl) {
          await proxyShape(db, config, actor, shape, req, res);
          return [];
        }
        const live = query.live === "true";
        if (query.offset !== "-1" && !query.handle) throw new ValidationError("handle: required with an offset other than -1.");
        if (live && (query.live_sse === "true" || query.experimental_live_sse === "true")) {
          await serveSse(db, actor, shape, query.offset, query.handle, query.cursor, res, notifier, streams);
          return [];
        }
        const position = parseOffset(query.offset).kind;
        const snapshot = position === "start" || position === "page";
        const deadline = Date.now() + LONG_POLL_MS;
        const signal = closeSignal(res);
        for (;;) {
          const seen = notifier.version;
          // Snapshot pages are read once per request; live log reads of one position are shared.
          const r = snapshot
            ? await readOnce(db, actor, shape, query.offset, query.handle, query.expired_handle)
            : await sharedRead(notifier, readerKey(actor, shape, query.offset, query.handle), () => readOnce(db, actor, shape, query.offset, query.handle));
          commonHeaders(res, r.handle);
          if (r.kind === "refetch") {
            res.status(409).json([{ headers: { control: "must-refetch" } }]);
            return [];
          }
          if (r.kind === "snapshot") {
            // Never up-to-date: the client asks again from `next` until the log says so (SH9).
            res.setHeader("electric-offset", r.next);
            res.setHeader("electric-schema", schemaHeader(shape));
            if (live) res.setHeader("electric-cursor", nextCursor(query.cursor));
            res.type("application/json").send(r.body);
            return [];
          }
          const waiting = live && !r.messages.length && !r.more && Date.now() < deadline;
          if (waiting) {
            await notifier.wait(seen, deadline - Date.now(), signal);
            if (signal.aborted || notifier.closed) {
              res.destroy();
              return [];
            }
            continue;
          }
          res.setHeader("electric-offset", logOffset(r.last));
          if (live) res.setHeader("electric-cursor", nextCursor(query.cursor));
          else res.setHeader("electric-schema", schemaHeader(shape));
          const parts = [...r.messages];
          if (!r.more) {
            res.setHeader("electric-up-to-date", "");
            parts.push(upToDate(r.last));
          }
          res.type("application/json").send(`[${parts.join(",")}]`);
          return [];
        }
      },
    }),
  ] as RouteDef[];
}

/** Aborts when this response is finished or its connection drops (per response: no listener piles up on keep-alive sockets). */
function closeSignal(res: Response): AbortSignal {
  const ac = new AbortController();
  res.once("close", () => ac.abort());
  return ac.signal;
}

/**
 * Live readers of the same shape, scope and position share one read per change: when a commit
 * wakes 200 subscribers of one location, the log is read once, not 200 times. Entries live for one
 * notifier version, so a later commit always gets a fresh read.
 */
const shared = new Map<string, { version: number; read: Promise<Read> }>();

function sharedRead(notifier: ChangeNotifier, key: string, read: () => Promise<Read>): Promise<Read> {
  const version = notifier.version;
  const hit = shared.get(key);
  if (hit && hit.version === version) return hit.read;
  const entry = { version, read: read() };
  shared.set(key, entry);
  // Forget it once settled and superseded; failures are never shared past their own callers.
  entry.read.then(
    () => setTimeout(() => shared.get(key) === entry && shared.delete(key), 1000).unref(),
    () => shared.get(key) === entry && shared.delete(key),
  );
  return entry.read;
}

const readerKey = (actor: Actor, shape: ShapeDef, offset: string, handle: string | undefined) =>
  [shape.name, actor.userId, actor.mfaProven, actor.locationScope?.join(",") ?? "*", offset, handle ?? ""].join("|");

/**
 * `live_sse`: the catch-up from `offset` (one event per message and an up-to-date), then the
 * stream joins the open ones, which share one read per change (live-streams.ts), for about SSE_MS.
 */
async function serveSse(
  db: Db,
  actor: Actor,
  shape: ShapeDef,
  offset: string,
  handle: string | undefined,
  cursor: string | undefined,
  res: Response,
  notifier: ChangeNotifier,
  streams: LiveStreams,
): Promise<void> {
  let seen = notifier.version;
  let r = await readOnce(db, actor, shape, offset, handle);
  commonHeaders(res, r.handle);
  if (r.kind !== "log") {
    res.status(409).json([{ headers: { control: "must-refetch" } }]);
    return;
  }
  res.status(200);
  res.setHeader("content-type", "text/event-stream");
  // Proxies (and the service worker) must pass each event on as it comes.
  res.setHeader("x-accel-buffering", "no");
  res.setHeader("electric-offset", offset);
  res.setHeader("electric-cursor", nextCursor(cursor));
  res.flushHeaders();
  res.write(sseChunk(r.messages, r.last));
  while (r.more) {
    seen = notifier.version;
    r = await readOnce(db, actor, shape, logOffset(r.last), handle);
    // The scope changed meanwhile: end the stream; the client's next request gets 409 must-refetch.
    if (r.kind !== "log") return void res.end();
    res.write(sseChunk(r.messages, r.last));
  }
  const now = Date.now();
  streams.add(
    { res, actor, shape, handle: r.handle, contentKey: r.contentKey, position: r.last, checked: r.head, endsAt: streams.endsAt(now), lastWrite: now },
    seen,
  );
}
