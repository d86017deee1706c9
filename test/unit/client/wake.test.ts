import { afterEach, describe, expect, it, vi } from "vitest";
import { holdWakeStream, parseEvents } from "../../../client/sync/wake.js";

describe("wake stream (sync/SPEC.md SH11)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("splits server-sent events, skipping comments and keeping an unfinished event for later", () => {
    const { events, rest } = parseEvents(': keep-alive\n\nevent: wake\nid: 7\ndata: {"shapes":["loans"]}\n\nevent: wa');
    expect(events).toEqual([{ event: "wake", data: '{"shapes":["loans"]}' }]);
    expect(rest).toBe("event: wa");
    expect(parseEvents("data: a\r\ndata: b\r\n\r\n").events).toEqual([{ event: "message", data: "a\nb" }]);
  });

  it("reports wakes, asks again from the last position when the server ends the stream, and falls back (with backoff) when it fails", async () => {
    vi.stubGlobal("location", { origin: "https://inventory.test" });
    const asked: string[] = [];
    const answers = [
      'event: ready\ndata: {"position":"10","proxy":true}\n\nevent: wake\nid: 12\ndata: {"shapes":["readings","loans"],"position":"12"}\n\nevent: end\ndata: {"position":"15"}\n\n',
      'event: ready\ndata: {"position":"15"}\n\n',
    ];
    const ac = new AbortController();
    vi.stubGlobal("fetch", async (url: string) => {
      asked.push(url);
      const body = answers.shift();
      if (body === undefined) {
        ac.abort();
        throw new TypeError("offline");
      }
      return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
    });
    const seen: string[] = [];
    await holdWakeStream(
      ac.signal,
      {
        connected: ({ proxy }) => seen.push(proxy ? "connected (proxy)" : "connected"),
        wake: (shapes) => seen.push(`wake ${shapes.join(",")}`),
        lost: (status) => seen.push(`lost ${status}`),
      },
      { baseMs: 1, maxMs: 1 },
    );
    // The second stream broke off without an end: lost (its answer was a 200); the third attempt was given up on.
    expect(seen).toEqual(["connected (proxy)", "wake readings,loans", "connected", "lost 200"]);
    expect(asked).toEqual([
      "https://inventory.test/api/v1/sync/live",
      "https://inventory.test/api/v1/sync/live?after=15",
      "https://inventory.test/api/v1/sync/live?after=15",
    ]);
  });
});
