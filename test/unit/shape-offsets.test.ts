import { describe, expect, test } from "vitest";
import { logOffset, pageOffset, parseOffset, snapshotEndOffset } from "../../server/sync/shapes/offsets.js";

const ids = [
  "00000000-0000-0000-0000-000000000000",
  "00000000-0000-7000-8000-00000000000a",
  "019a2b3c-4d5e-7f60-8a1b-2c3d4e5f6071",
  "7fffffff-ffff-4fff-bfff-ffffffffffff",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
];

describe("shape offsets (sync/SPEC.md SH3, SH9)", () => {
  test("SH9 a page offset gives back the snapshot's head and the last id of its page", () => {
    for (const id of ids) expect(parseOffset(pageOffset(42, id))).toEqual({ kind: "page", head: 42, afterId: id });
  });

  test("SH9 page offsets stay in Electric's <tx>_<op> grammar and grow with the id, as Postgres orders uuids", () => {
    const ops = ids
      .map((id) => pageOffset(7, id))
      .map((o) => {
        expect(o).toMatch(/^7_[1-9]\d*$/);
        return BigInt(o.split("_")[1]!);
      });
    for (let i = 1; i < ops.length; i++) expect(ops[i]! > ops[i - 1]!).toBe(true);
  });

  test("SH3 SH9 log offsets and the snapshot's end are never taken for a page", () => {
    expect(parseOffset(logOffset(9))).toEqual({ kind: "log", after: 9 });
    expect(parseOffset(snapshotEndOffset(9))).toEqual({ kind: "log", after: 9 });
    expect(parseOffset("9_00")).toEqual({ kind: "log", after: 9 });
    expect(parseOffset("-1")).toEqual({ kind: "start" });
    expect(parseOffset("now")).toEqual({ kind: "now" });
  });

  test("SH9 an op part beyond any uuid, or no offset at all, is refused", () => {
    expect(() => parseOffset(`1_${(1n << 128n) + 1n}`)).toThrow(/offset/);
    expect(parseOffset(`1_${1n << 128n}`)).toEqual({ kind: "page", head: 1, afterId: "ffffffff-ffff-ffff-ffff-ffffffffffff" });
    for (const bad of ["", "1", "1_", "_1", "1_2_3", "a_1", "1_-1", "-2"]) expect(() => parseOffset(bad)).toThrow(/offset/);
  });
});
