/**
 * The wake stream (sync/SPEC.md SH11): a change wakes the readers of its location with the names
 * of the shapes it touched, never a reader who cannot see that location, and a reader whose scope
 * changed with every shape.
 */
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { SHAPE_NAMES } from "../../../sync/shapes.js";
import type { TestService } from "../../support/app.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

interface WakeEvent {
  event: string;
  shapes: string[];
  position: string;
}

/** Opens a wake stream as `c`; `events` fills as they come, `until` waits for one that `pred` accepts. */
async function wakeStream(svc: TestService, c: Client, after?: string) {
  const ac = new AbortController();
  const res = await fetch(`${svc.url}/api/v1/sync/live${after ? `?after=${after}` : ""}`, {
    headers: { cookie: cookieOf(c), accept: "text/event-stream" },
    signal: ac.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const events: WakeEvent[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const read = (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!event || !data) continue;
        const parsed = JSON.parse(data) as { shapes?: string[]; position: string };
        events.push({ event, shapes: parsed.shapes ?? [], position: parsed.position });
        for (const w of waiters) w();
      }
    }
  })()
    .catch(() => undefined)
    .finally(() => {
      ended = true;
      for (const w of waiters) w();
    });
  const until = (pred: (e: WakeEvent) => boolean, ms = 10_000) =>
    new Promise<WakeEvent>((resolve, reject) => {
      const check = () => {
        const found = events.find(pred);
        if (found) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        } else if (ended) reject(new Error(`the stream ended without it: ${JSON.stringify(events)}`));
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no such event in ${ms} ms: ${JSON.stringify(events)}`));
      }, ms);
      waiters.add(check);
      check();
    });
  await until((e) => e.event === "ready");
  const wakes = () => events.filter((e) => e.event === "wake");
  return { events, wakes, until, read, close: () => ac.abort() };
}

const woken = (shape: string) => (e: WakeEvent) => e.event === "wake" && e.shapes.includes(shape);

async function meterAndThing(c: Client, loc: string) {
  const thing = await c.post(`/api/v1/locations/${loc}/things`, { name: "Boiler" });
  expect(thing.status).toBe(201);
  const meterId = uuidv7();
  const made = await push(c, [op({ name: "meter.create", locationId: loc, args: { id: meterId, thingId: thing.body.id, kind: "water", unit: "m3" } })]);
  expect(made.body.results[0].status).toBe("applied");
  return { thingId: thing.body.id as string, meterId };
}

describe("SH11 the wake stream", () => {
  test("a reading and a loan in a location wake its readers with those shapes' names, and never a reader who cannot see it", async ({ svc, loc, as }) => {
    const member = await wakeStream(svc, as.member);
    const viewer = await wakeStream(svc, as.viewer);
    const outsider = await wakeStream(svc, as.outsider);
    const { thingId, meterId } = await meterAndThing(as.owner, loc);
    for (const s of [member, viewer]) {
      await s.until(woken("things"));
      await s.until(woken("meters"));
    }
    const reading = await push(as.owner, [
      op({ name: "reading.capture", locationId: loc, args: { id: uuidv7(), meterId, value: "12.5", takenAt: new Date().toISOString() } }),
    ]);
    expect(reading.body.results[0].status).toBe("applied");
    for (const s of [member, viewer]) await s.until(woken("readings"));
    const loan = await push(as.owner, [
      op({ name: "loan.create", locationId: loc, args: { id: uuidv7(), thingId, direction: "out", person: { name: "Ola", id: uuidv7() } } }),
    ]);
    expect(loan.body.results[0].status).toBe("applied");
    for (const s of [member, viewer]) {
      await s.until(woken("loans"));
      // Names only: a wake never carries a row.
      for (const e of s.wakes()) expect(Object.keys(e).sort()).toEqual(["event", "position", "shapes"]);
    }
    // A change in the outsider's own location: once it has woken them, anything of the owner's
    // location (all logged before it) would have too.
    const own = (await as.outsider.get("/api/v1/me")).body.locations[0].id as string;
    expect((await as.outsider.post(`/api/v1/locations/${own}/things`, { name: "Own lamp" })).status).toBe(201);
    await outsider.until(woken("things"));
    const names = outsider.wakes().flatMap((e) => e.shapes);
    for (const other of ["meters", "readings", "loans", "contacts"]) expect(names).not.toContain(other);
    // A thing's own code is no printed label: the codes shape's filter keeps it out, and so out of the wake.
    expect(names).not.toContain("codes");
    for (const s of [member, viewer, outsider]) s.close();
  });

  test("a device that comes back with the position it last heard is woken at once for what changed meanwhile, and only for its own locations", async ({
    svc,
    loc,
    as,
  }) => {
    const first = await wakeStream(svc, as.member);
    const outsiderFirst = await wakeStream(svc, as.outsider);
    const at = first.events[0]!.position;
    const outsiderAt = outsiderFirst.events[0]!.position;
    first.close();
    outsiderFirst.close();
    await meterAndThing(as.owner, loc);
    const again = await wakeStream(svc, as.member, at);
    const wake = await again.until((e) => e.event === "wake");
    expect(wake.shapes).toEqual(expect.arrayContaining(["things", "meters"]));
    expect(wake.shapes).not.toContain("loans");
    const outsiderAgain = await wakeStream(svc, as.outsider, outsiderAt);
    // Nothing of theirs changed: a ready, then no wake (the owner's next change shows the stream is live).
    await meterAndThing(as.owner, loc);
    await again.until((e) => e.event === "wake" && e !== wake);
    expect(outsiderAgain.wakes()).toEqual([]);
    // A position past the head is another log's: every shape.
    const ahead = await wakeStream(svc, as.member, "999999999999");
    const all = await ahead.until((e) => e.event === "wake");
    expect(all.shapes.sort()).toEqual([...SHAPE_NAMES].sort());
    for (const s of [again, outsiderAgain, ahead]) s.close();
  });

  test("SH4 another person's membership wakes no one else; a reader's own membership change wakes them for every shape", async ({ svc, loc, as }) => {
    const member = await wakeStream(svc, as.member);
    const admin = await wakeStream(svc, as.admin);
    expect((await as.owner.patch(`/api/v1/locations/${loc}/members/${as.admin.userId}`, { role: "member" })).status).toBe(200);
    const all = await admin.until((e) => e.event === "wake");
    expect(all.shapes.sort()).toEqual([...SHAPE_NAMES].sort());
    // The member's stream heard nothing of it: its next wake is its own thing's.
    expect((await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Ladder" })).status).toBe(201);
    const next = await member.until((e) => e.event === "wake");
    expect(next.shapes).not.toContain("memberships");
    expect(next.shapes).toContain("things");
    // Removed from the location: woken for every shape (each answers 409 must-refetch, SH7).
    expect((await as.owner.delete(`/api/v1/locations/${loc}/members/${as.member.userId}`)).status).toBe(200);
    await member.until((e) => e.event === "wake" && e.shapes.length === SHAPE_NAMES.length);
    for (const s of [member, admin]) s.close();
  });

  test("a session holds a few streams at most (a new one ends the oldest), and a request that does not ask for events is refused", async ({ svc, as }) => {
    const streams = [];
    for (let i = 0; i < 4; i++) streams.push(await wakeStream(svc, as.owner));
    await streams[0]!.read;
    expect(streams[0]!.events.at(-1)!.event).toBe("end");
    for (const s of streams.slice(1)) expect(s.events.some((e) => e.event === "end")).toBe(false);
    for (const s of streams) s.close();
    const plain = await as.owner.get("/api/v1/sync/live");
    expect(plain.status).toBe(400);
    expect(plain.body.error.code).toBe("validation_failed");
    const anonymous = await fetch(`${svc.url}/api/v1/sync/live`, { headers: { accept: "text/event-stream" } });
    expect(anonymous.status).toBe(401);
  });
});
