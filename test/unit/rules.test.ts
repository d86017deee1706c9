import { describe, expect, test } from "vitest";
import { roleAtLeast } from "../../shared/roles.js";
import { thingCreateArgs, thingMoveArgs } from "../../shared/things.js";
import { UUID_PATTERN } from "../../shared/ids.js";
import { stripTokens } from "../../server/auth/auth.js";
import { fieldValueProblem } from "../../server/modules/types/fields.js";

describe("roles", () => {
  test("owner > admin > member > viewer", () => {
    expect(roleAtLeast("owner", "admin")).toBe(true);
    expect(roleAtLeast("member", "member")).toBe(true);
    expect(roleAtLeast("viewer", "member")).toBe(false);
    expect(roleAtLeast("admin", "owner")).toBe(false);
  });
});

describe("token stripping", () => {
  test("removes every token key at any depth and keeps the rest", () => {
    expect(stripTokens({ token: "s", user: { id: 1, token: "x" }, list: [{ token: 1, a: 2 }] })).toEqual({ user: { id: 1 }, list: [{ a: 2 }] });
  });
});

describe("op argument schemas", () => {
  test("a thing sits in a place or a container, not both", () => {
    const id = "01a20326-6895-71e0-baf8-1f8a6cb9eb7e";
    expect(thingCreateArgs.safeParse({ id, placeId: id, containerId: id }).success).toBe(false);
    expect(thingMoveArgs.safeParse({ id }).success).toBe(false);
    expect(thingMoveArgs.safeParse({ id, placeId: id }).success).toBe(true);
  });
  test("uuids follow the spec's pattern", () => {
    expect(UUID_PATTERN.test("01a20326-6895-71e0-baf8-1f8a6cb9eb7e")).toBe(true);
    expect(UUID_PATTERN.test("01a20326-6895-91e0-baf8-1f8a6cb9eb7e")).toBe(false);
  });
});

describe("custom field values", () => {
  const field = (kind: string, extra: Record<string, unknown> = {}) =>
    ({ kind, secret: false, repeatable: false, options: null, ...extra }) as Parameters<typeof fieldValueProblem>[0];
  test("values are checked against the field kind", () => {
    expect(fieldValueProblem(field("date"), "2026-02-30x")).not.toBeNull();
    expect(fieldValueProblem(field("date"), "2026-02-03")).toBeNull();
    expect(fieldValueProblem(field("select", { options: ["a", "b"] }), "c")).not.toBeNull();
    expect(fieldValueProblem(field("money"), { amount: "12.50", currency: "EUR" })).toBeNull();
    expect(fieldValueProblem(field("url"), "javascript:alert(1)")).not.toBeNull();
    expect(fieldValueProblem(field("text", { repeatable: true }), ["a", "b"])).toBeNull();
  });
  test("a secret field's value is checked by its kind like any other (the caller stores it encrypted)", () => {
    expect(fieldValueProblem(field("text", { secret: true }), "hunter2")).toBeNull();
    expect(fieldValueProblem(field("number", { secret: true }), "four")).not.toBeNull();
  });
});
