import { describe, expect, test } from "vitest";
import { horizonHandle, isHandleOf, snapshotHandle, type Scope } from "../../server/sync/shapes/scope.js";

const scope: Scope = { handle: "0123456789abcdef-1795600504931000", moneyHidden: [], contentKey: "a" };
const other: Scope = { handle: "fedcba9876543210-1795600504931000", moneyHidden: [], contentKey: "a" };

describe("shape handles after compaction (sync/SPEC.md SH4, SH10)", () => {
  test("SH10 the handles made for readers after compaction are new, and of the same scope", () => {
    const behind = horizonHandle(scope, 5000);
    const fresh = snapshotHandle(scope, 7000);
    expect(new Set([scope.handle, behind, fresh]).size).toBe(3);
    for (const h of [scope.handle, behind, fresh]) expect(isHandleOf(scope, h)).toBe(true);
    // The horizon only grows: a reader behind it again gets another handle.
    expect(horizonHandle(scope, 9000)).not.toBe(behind);
  });

  test("SH4 SH10 a handle of another scope, or one only starting like this scope's, is not this scope's", () => {
    expect(isHandleOf(scope, undefined)).toBe(false);
    expect(isHandleOf(scope, other.handle)).toBe(false);
    expect(isHandleOf(scope, horizonHandle(other, 5000))).toBe(false);
    expect(isHandleOf(scope, `${scope.handle}7`)).toBe(false);
    expect(isHandleOf(scope, `${scope.handle}-r`)).toBe(false);
    expect(isHandleOf(scope, `${scope.handle}-r5-r6`)).toBe(false);
    expect(isHandleOf(scope, `${scope.handle}-x5`)).toBe(false);
  });
});
