import { describe, expect, it } from "vitest";
import { backoffDelay, parseRetryAfter } from "../../../client/sync/backoff.js";

describe("push backoff", () => {
  const opts = { baseMs: 1000, maxMs: 60_000 };

  it("grows the ceiling exponentially and caps it", () => {
    const top = (attempt: number) => backoffDelay(attempt, undefined, opts, () => 0.999999);
    expect([0, 1, 2, 3].map(top)).toEqual([999, 1999, 3999, 7999]);
    expect(top(20)).toBe(59_999);
  });

  it("jitters over the whole range (full jitter), so devices coming back together spread out", () => {
    expect(backoffDelay(3, undefined, opts, () => 0)).toBe(0);
    expect(backoffDelay(3, undefined, opts, () => 0.5)).toBe(4000);
  });

  it("PU3 never retries sooner than Retry-After", () => {
    expect(backoffDelay(0, 5000, opts, () => 0.1)).toBe(5000);
    expect(backoffDelay(6, 5000, opts, () => 0.9)).toBe(54_000);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});
