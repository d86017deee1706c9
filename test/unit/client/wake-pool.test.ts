/**
 * The wake pool never runs two catch-ups of one shape at once: a wake that comes while its shape
 * is catching up waits for that catch-up to end and then asks again. (Two at once were both
 * resolved by the first answer, read before the new change, which was then lost until a later
 * wake: the live-screens bench's tenth contact never arrived.)
 */
import { expect, it } from "vitest";
import type { ShapeFollower } from "../../../client/sync/shapes.js";
import { WakePool } from "../../../client/sync/wake-pool.js";

it("a wake during a shape's catch-up runs after it, not beside it", async () => {
  let running = 0;
  let most = 0;
  let calls = 0;
  const ends: (() => void)[] = [];
  const follower = {
    name: "contacts",
    changes: 0,
    catchUp: () => {
      calls++;
      most = Math.max(most, ++running);
      return new Promise<void>((resolve) =>
        ends.push(() => {
          running--;
          resolve();
        }),
      );
    },
  } as unknown as ShapeFollower;
  const pool = new WakePool(() => follower, new AbortController().signal);
  pool.wake(["contacts"]);
  pool.wake(["contacts"]);
  pool.wake(["contacts"]);
  expect(calls).toBe(1);
  ends.shift()!();
  await new Promise((r) => setTimeout(r, 0));
  // The wakes that came meanwhile are one more catch-up, asked after the first ended.
  expect(calls).toBe(2);
  ends.shift()!();
  await new Promise((r) => setTimeout(r, 0));
  expect(calls).toBe(2);
  expect(most).toBe(1);
});
