/**
 * The device's one wake stream (sync/SPEC.md SH11): a server-sent-events request that names the
 * shapes with new changes for this reader. Held open and asked again from the last position heard
 * whenever the server ends it (every ~25 s); after a failure, asked again with backoff, and the
 * engine meanwhile falls back to live shapes and periodic catch-ups (engine.ts).
 *
 * Read with fetch rather than EventSource: EventSource retries by itself without telling a 401
 * from a network error, and cannot be given up on cleanly by an AbortSignal.
 */
import type { ShapeName } from "../../sync/shapes.js";
import { apiUrl } from "./api.js";
import { backoffDelay, type BackoffOptions } from "./backoff.js";

export const WAKE_BACKOFF: BackoffOptions = { baseMs: 1_000, maxMs: 30_000 };

export interface WakeHandlers {
  /** The stream is open (its `ready` arrived); `proxy`: the shapes are served by a real Electric (SH8). */
  connected(info: { proxy: boolean }): void;
  /** The shapes to catch up. */
  wake(shapes: ShapeName[]): void;
  /** The stream could not be opened or broke; `status` is the answer's, 0 for a network error. */
  lost(status: number): void;
}

export interface SseEvent {
  event: string;
  data: string;
}

/** Splits server-sent events out of `buffer`; returns them and what is left (an unfinished event). */
export function parseEvents(buffer: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const blocks = buffer.replace(/\r\n?/g, "\n").split("\n\n");
  const rest = blocks.pop() ?? "";
  for (const block of blocks) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length) events.push({ event, data: data.join("\n") });
  }
  return { events, rest };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });

/** Holds the wake stream until `signal` aborts. */
export async function holdWakeStream(signal: AbortSignal, handlers: WakeHandlers, backoff: BackoffOptions = WAKE_BACKOFF): Promise<void> {
  let position: string | undefined;
  let failures = 0;
  while (!signal.aborted) {
    let status = 0;
    let ended = false;
    try {
      const path = `/api/v1/sync/live${position ? `?after=${position}` : ""}`;
      const res = await fetch(apiUrl(path), { headers: { accept: "text/event-stream" }, credentials: "same-origin", cache: "no-store", signal });
      status = res.status;
      if (res.ok && res.body) {
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const parsed = parseEvents(buffer + value);
          buffer = parsed.rest;
          for (const e of parsed.events) {
            const data = JSON.parse(e.data) as { position?: string; shapes?: ShapeName[]; proxy?: boolean };
            if (data.position) position = data.position;
            if (e.event === "ready") {
              failures = 0;
              handlers.connected({ proxy: data.proxy === true });
            } else if (e.event === "wake" && data.shapes?.length) handlers.wake(data.shapes);
            else if (e.event === "end") ended = true;
          }
        }
      }
    } catch {
      // A network error or an abort: told apart below.
    }
    if (signal.aborted) return;
    // The server ended the stream as it does every ~25 s: ask again at once, still connected.
    if (ended) continue;
    handlers.lost(status);
    await sleep(backoffDelay(failures++, undefined, backoff), signal);
  }
}
