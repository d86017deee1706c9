/**
 * How a device applies a batch of shape messages (client/sync/shapes.ts foldMessages): the last
 * message of each row decides, so a thing that moves between two locations the device reads (a
 * delete under the old location, then the row under the new one, in one batch) stays on the device.
 */
import type { Message, Row } from "@electric-sql/client";
import { describe, expect, test } from "vitest";
import { foldMessages } from "../../../client/sync/shapes.js";

const change = (operation: "insert" | "update" | "delete", id: string, extra: Record<string, unknown> = {}, txid = 1): Message<Row> => ({
  key: `"public"."things"/"${id}"`,
  value: { id, ...extra },
  headers: { operation, txids: [txid] },
});
const control = (c: "up-to-date" | "must-refetch"): Message<Row> => ({ headers: { control: c } });

describe("applying a batch of shape messages", () => {
  test("a delete followed by the row again keeps the row (a move between two locations the device reads)", () => {
    const out = foldMessages([change("delete", "a"), change("update", "a", { locationId: "target" }, 7), control("up-to-date")]);
    expect(out.puts).toEqual([{ id: "a", locationId: "target" }]);
    expect(out.deletes).toEqual([]);
    expect(out.txids).toEqual(["1", "7"]);
    expect(out.upToDate).toBe(true);
  });

  test("a row followed by its delete is gone; other rows are untouched", () => {
    const out = foldMessages([change("insert", "a"), change("insert", "b", { name: "kept" }), change("delete", "a")]);
    expect(out.puts).toEqual([{ id: "b", name: "kept" }]);
    expect(out.deletes).toEqual(["a"]);
    expect(out.upToDate).toBe(false);
  });

  test("the last version of a row wins; a must-refetch drops everything before it", () => {
    expect(foldMessages([change("insert", "a", { n: 1 }), change("update", "a", { n: 2 })]).puts).toEqual([{ id: "a", n: 2 }]);
    const out = foldMessages([change("insert", "a"), control("must-refetch"), change("insert", "b")]);
    expect(out.reset).toBe(true);
    expect(out.puts.map((r) => r.id)).toEqual(["b"]);
  });
});
