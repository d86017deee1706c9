import { describe, expect, test } from "vitest";
import { validate, version } from "uuid";
import { newId } from "../../server/commands/ids.js";

describe("server-made ids", () => {
  test("are uuid v7 whose time is now", () => {
    const before = Date.now();
    const id = newId();
    expect(validate(id)).toBe(true);
    expect(version(id)).toBe(7);
    const ms = parseInt(id.replace(/-/g, "").slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 1);
  });

  test("made in a burst are all different and sort in the order they were made (history pages by id)", () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // The tail is random: no two ids share it.
    expect(new Set(ids.map((id) => id.slice(-12))).size).toBe(ids.length);
  });
});
