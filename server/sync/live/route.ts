/**
 * GET /api/v1/sync/live: one server-sent-events stream per device that says which shapes have new
 * changes for this reader (sync/SPEC.md SH11), so that a device keeps every shape paused and holds
 * one long connection instead of one per live shape (browsers give a host six).
 */
import { z } from "zod";
import { SHAPE_NAMES, type ShapeName } from "../../../sync/shapes.js";
import { ValidationError } from "../../errors/classes.js";
import { defineRoute, type RouteDef, type RouteDeps } from "../../http/route.js";
import type { ChangeNotifier } from "../shapes/notifier.js";
import { headAndHorizon, wakeEntries } from "./wake-query.js";
import { WakeStreams, readableOf, shapesFor, wakeEvent } from "./wake-streams.js";

const querySchema = z.object({
  /** The position of the last wake (or end) event the device received: what changed since then wakes it at once. */
  after: z
    .string()
    .regex(/^\d{1,18}$/, "after must be a log position")
    .optional(),
});

export function wakeRoutes({ db, config }: RouteDeps, notifier: ChangeNotifier): RouteDef[] {
  const streams = new WakeStreams(db, notifier);
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/sync/live",
      summary:
        "Server-sent events naming the shapes with new changes for this reader (event `wake`, data `{shapes, position}`); catch those shapes up through their own requests",
      tag: "sync",
      query: querySchema,
      produces: "text/event-stream",
      response: z.unknown(),
      async handler({ req, res, actor, query }) {
        // A stream is held for its reader: asked for by name, as EventSource and the app do, so a
        // plain request (a script, a crawler of the API document) gets an answer instead of a 25 s wait.
        if (!/\btext\/event-stream\b/.test(req.headers.accept ?? "")) throw new ValidationError("accept: this route answers text/event-stream; ask for it.");
        const seen = notifier.version;
        const { head, horizon } = await headAndHorizon(db);
        const readable = await readableOf(db, actor);
        const after = query.after === undefined ? head : Number(query.after);
        res.status(200);
        res.setHeader("content-type", "text/event-stream");
        res.setHeader("cache-control", "private, no-store");
        res.setHeader("vary", "Cookie, Authorization");
        // Proxies (and the service worker) must pass each event on as it comes.
        res.setHeader("x-accel-buffering", "no");
        res.flushHeaders();
        // `proxy`: the rows come from a real Electric (SH8), which may not have replicated a change yet when its wake arrives.
        res.write(`retry: 2000\nevent: ready\ndata: ${JSON.stringify({ position: String(head), proxy: Boolean(config.electricUrl) })}\n\n`);
        if (after < head) {
          // Changed while the device was not listening: wake it now. A position the compaction went
          // past may miss a removed entry (SH10), and one past the head is another log's: every shape.
          const shapes: ShapeName[] =
            after < horizon ? [...SHAPE_NAMES] : [...shapesFor({ actor, readable, position: after }, await wakeEntries(db, after, head))];
          if (shapes.length) res.write(wakeEvent(shapes, head));
        } else if (after > head) res.write(wakeEvent([...SHAPE_NAMES], head));
        const now = Date.now();
        streams.add({ res, actor, readable, position: head, checked: head, endsAt: streams.endsAt(now), lastWrite: now }, seen);
        return undefined;
      },
    }),
  ] as RouteDef[];
}
