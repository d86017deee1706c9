/**
 * The segment writer as whole batches see it: ops of one segment that touch the same row see each
 * other's result, rows changed twice are written once in their last state, and every handler
 * answers a stale version with the current rowVersion.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { inboxItemSchema } from "../../../shared/inbox.js";
import { pageOf } from "../../../shared/paging.js";
import { userActor, withActor } from "../../../server/db/actor.js";
import { loadContext } from "../../../server/commands/executor.js";
import { SegmentChanges } from "../../../server/commands/segment.js";
import type { CommandContext, CommandInput } from "../../../server/commands/types.js";
import type { Tx } from "../../../server/db/client.js";
import { historyEntries, inboxItems, locations, memberships, places, things } from "../../../server/db/schema/index.js";
import { executeBatch } from "../../../server/modules/registry.js";
import type { Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";
import { apiTest } from "../../support/fixtures.js";

const test = apiTest
  /** Runs `inputs` as one batch through the executor, as `who` (ops push does not accept too). */
  .extend("batch", { scope: "file" }, async ({ svc, loc }) => (who: Client, inputs: Omit<CommandInput, "locationId">[]) => {
    const actor = userActor({ id: who.userId, name: who.email }, { mfaProven: true });
    return executeBatch(
      svc.database.db,
      actor,
      inputs.map((i) => ({ locationId: loc, ...i })),
      { undoWindowMs: svc.config.undoWindowMs },
    );
  })
  .extend(
    "thingRow",
    { scope: "file" },
    async ({ svc }) =>
      async (id: string) =>
        (await svc.database.db.select().from(things).where(eq(things.id, id)))[0]!,
  )
  .extend(
    "thingHistory",
    { scope: "file" },
    async ({ svc }) =>
      (id: string) =>
        svc.database.db.select().from(historyEntries).where(eq(historyEntries.entityId, id)).orderBy(historyEntries.rowVersionAfter),
  )
  /** A draft captured by the member and then edited with `patch`; answers its inbox item. */
  .extend("capture", { scope: "file" }, async ({ loc, as }) => async (name: string, patch: Record<string, unknown>) => {
    const id = uuidv7();
    expect((await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id, name } })])).body.results[0].status).toBe("applied");
    expect((await as.member.patch(`/api/v1/things/${id}`, { rowVersion: 1, ...patch })).status).toBe(200);
    const items = pageOf(inboxItemSchema).parse((await as.admin.get(`/api/v1/inbox?locationId=${loc}&kind=draft`)).body).items;
    return items.find((i) => i.thing?.id === id)!;
  })
  /** Runs `fn` with a command context of the owner's, as a handler gets it. */
  .extend("asOwner", { scope: "file" }, async ({ svc, as }) => <T>(fn: (ctx: CommandContext) => Promise<T>) => {
    const actor = userActor({ id: as.owner.userId, name: as.owner.email }, { mfaProven: true });
    return withActor(svc.database.db, actor, async (tx: Tx) => fn({ tx, actor, ...(await loadContext(tx)), now: new Date(), undoWindowMs: 60_000 }));
  })
  /** A thing renamed twice by the member; answers its id and the two rename events. */
  .extend("renamedTwice", { scope: "file" }, async ({ loc, as, thingHistory }) => async () => {
    const id = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Stool" })).body.id as string;
    await as.member.patch(`/api/v1/things/${id}`, { rowVersion: 1, name: "Bar stool" });
    await as.member.patch(`/api/v1/things/${id}`, { rowVersion: 2, name: "Tall stool" });
    const [toBar, toTall] = (await thingHistory(id)).filter((h) => h.action === "thing.updated");
    return { id, toBar: toBar!.id, toTall: toTall!.id };
  });

describe("inbox", () => {
  test("two merges of one pushed segment fold into the same thing, the second seeing the first", async ({ svc, loc, as, thingRow, thingHistory, capture }) => {
    const into = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Ladder" })).body.id as string;
    const first = await capture("Ladder (photo 1)", { colour: "yellow" });
    const second = await capture("Ladder (photo 2)", { colour: "red", serial: "LD-9" });
    const res = await push(as.admin, [
      op({ name: "inbox.merge", locationId: loc, args: { id: first.id, into } }),
      op({ name: "inbox.merge", locationId: loc, args: { id: second.id, into } }),
    ]);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied"]);
    // The colour came from the first draft; the second only filled what was still empty.
    expect(await thingRow(into)).toMatchObject({ colour: "yellow", serial: "LD-9", rowVersion: 3 });
    const merged = (await thingHistory(into)).filter((h) => h.action === "thing.merged");
    expect(merged.map((h) => [h.rowVersionAfter, h.after])).toEqual([
      [2, { colour: "yellow" }],
      [3, { serial: "LD-9" }],
    ]);
    for (const draft of [first, second]) expect((await thingRow(draft.thing!.id)).deletedAt).not.toBeNull();
    const items = await svc.database.db
      .select()
      .from(inboxItems)
      .where(inArray(inboxItems.id, [first.id, second.id]));
    for (const item of items) expect(item).toMatchObject({ status: "merged", rowVersion: 2, payload: { mergedInto: into } });
  });

  test("a draft merged away earlier in the segment cannot be merged into", async ({ loc, as, thingRow, capture }) => {
    const into = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Kettle" })).body.id as string;
    const first = await capture("Kettle (photo)", { colour: "steel" });
    const second = await capture("Kettle lid", { serial: "KL-1" });
    const res = await push(as.admin, [
      op({ name: "inbox.merge", locationId: loc, args: { id: first.id, into } }),
      op({ name: "inbox.merge", locationId: loc, args: { id: second.id, into: first.thing!.id } }),
    ]);
    expect(res.body.results[0].status).toBe("applied");
    expect(res.body.results[1]).toMatchObject({ status: "dropped", reason: "not_found" });
    expect((await thingRow(second.thing!.id)).deletedAt).toBeNull();
  });
});

describe("undo", () => {
  test("two undos of one thing in one segment: the earlier event is undone on top of the later one's undo", async ({
    as,
    batch,
    thingRow,
    thingHistory,
    renamedTwice,
  }) => {
    const { id, toBar, toTall } = await renamedTwice();
    const verdicts = await batch(as.member, [
      { name: "history.undo", args: { eventId: toTall } },
      { name: "history.undo", args: { eventId: toBar } },
    ]);
    expect(verdicts.map((v) => (v.status === "applied" ? v.rowVersion : v.error.code))).toEqual([4, 5]);
    expect(await thingRow(id)).toMatchObject({ name: "Stool", rowVersion: 5 });
    const events = await thingHistory(id);
    expect(events.filter((h) => h.undoOfEventId).map((h) => [h.undoOfEventId, h.before, h.after])).toEqual([
      [toTall, { name: "Tall stool" }, { name: "Bar stool" }],
      [toBar, { name: "Bar stool" }, { name: "Stool" }],
    ]);
    for (const e of events.filter((h) => h.id === toBar || h.id === toTall)) expect(e.undoneAt).not.toBeNull();
  });

  test("in the other order the earlier event was changed again, and only the later one is undone", async ({ as, batch, thingRow, renamedTwice }) => {
    const { id, toBar, toTall } = await renamedTwice();
    const verdicts = await batch(as.member, [
      { name: "history.undo", args: { eventId: toBar } },
      { name: "history.undo", args: { eventId: toTall } },
    ]);
    expect(verdicts.map((v) => (v.status === "applied" ? v.rowVersion : v.error.code))).toEqual(["conflict", 4]);
    expect(await thingRow(id)).toMatchObject({ name: "Bar stool", rowVersion: 4 });
  });
});

describe("members", () => {
  test("role changes and removals of one batch are answered in order and written once", async ({ svc, loc, as, batch }) => {
    const [a, b, c] = [await svc.signedIn("Ada"), await svc.signedIn("Bo"), await svc.signedIn("Cy")];
    for (const [who, role] of [
      [a, "member"],
      [b, "member"],
      [c, "viewer"],
    ] as const)
      await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId: loc, userId: who.userId, role });
    const verdicts = await batch(as.owner, [
      { name: "member.update", args: { userId: a.userId, role: "admin" } },
      { name: "member.update", args: { userId: b.userId, role: "viewer" }, baseVersion: 7 },
      { name: "member.update", args: { userId: as.outsider.userId, role: "viewer" } },
      { name: "member.remove", args: { userId: c.userId } },
      { name: "member.remove", args: { userId: b.userId } },
    ]);
    expect(verdicts.map((v) => (v.status === "applied" ? [v.entityId, v.rowVersion] : [v.error.code, v.error.details]))).toEqual([
      [a.userId, 2],
      ["version_conflict", { rowVersion: 1 }],
      ["not_found", undefined],
      [c.userId, 2],
      [b.userId, 2],
    ]);
    const live = await svc.database.db
      .select({ userId: memberships.userId, role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.locationId, loc), isNull(memberships.deletedAt)));
    expect(live).toContainEqual({ userId: a.userId, role: "admin" });
    expect(live.map((m) => m.userId)).not.toContain(b.userId);
    expect(live.map((m) => m.userId)).not.toContain(c.userId);
    const history = await svc.database.db
      .select()
      .from(historyEntries)
      .where(and(eq(historyEntries.locationId, loc), eq(historyEntries.entityType, "member")));
    const of = (userId: string) => history.filter((h) => h.entityId === userId).map((h) => [h.summaryKey, h.before, h.after, h.rowVersionAfter]);
    expect(of(a.userId)).toEqual([["member.role_changed", { role: "member" }, { role: "admin" }, 2]]);
    expect(of(b.userId)).toEqual([["member.removed", { role: "member" }, { role: null }, 2]]);
    expect(of(c.userId)).toEqual([["member.removed", { role: "viewer" }, { role: null }, 2]]);
  });

  test("a member leaves through a batch: the history entry is written before the membership goes", async ({ svc, loc, batch }) => {
    const d = await svc.signedIn("Di");
    await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId: loc, userId: d.userId, role: "member" });
    const [verdict] = await batch(d, [{ name: "member.remove", args: { userId: d.userId } }]);
    expect(verdict).toMatchObject({ status: "applied", entityId: d.userId, rowVersion: 2 });
  });
});

describe("a stale baseVersion is version_conflict with the current rowVersion", () => {
  test("place", async ({ svc, loc, as }) => {
    const place = (await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Cellar" })).body.id as string;
    expect((await as.member.patch(`/api/v1/places/${place}`, { rowVersion: 1, name: "Wine cellar" })).status).toBe(200);
    const stale = await as.member.patch(`/api/v1/places/${place}`, { rowVersion: 1, name: "Basement" });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "version_conflict", details: { rowVersion: 2 } });
    // Pushed, the same stale op merges field by field: it conflicts only on a field changed since.
    const pushed = await push(as.member, [
      op({ name: "place.update", locationId: loc, args: { id: place, patch: { name: "Basement" } }, baseVersion: 1 }),
      op({ name: "place.update", locationId: loc, args: { id: place, patch: { parentId: null } }, baseVersion: 1 }),
    ]);
    expect(pushed.body.results.map((r: { status: string; reason?: string }) => r.reason ?? r.status)).toEqual(["stale", "applied"]);
    expect((await svc.database.db.select().from(places).where(eq(places.id, place)))[0]).toMatchObject({ name: "Wine cellar", rowVersion: 3 });
  });

  test("location", async ({ svc, loc, as }) => {
    const before = (await svc.database.db.select().from(locations).where(eq(locations.id, loc)))[0]!;
    expect((await as.owner.patch(`/api/v1/locations/${loc}`, { rowVersion: before.rowVersion, name: "Home base" })).status).toBe(200);
    const stale = await as.owner.patch(`/api/v1/locations/${loc}`, { rowVersion: before.rowVersion, name: "Other name" });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "version_conflict", details: { rowVersion: before.rowVersion + 1 } });
    // A stale op that could never apply says why instead: only the owner requires two-factor.
    const forbidden = await as.admin.patch(`/api/v1/locations/${loc}`, { rowVersion: before.rowVersion, requiresTwoFactor: true });
    expect(forbidden.status).toBe(403);
  });

  test("member", async ({ svc, loc, as }) => {
    const e = await svc.signedIn("Eve");
    await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId: loc, userId: e.userId, role: "viewer" });
    expect((await as.owner.patch(`/api/v1/locations/${loc}/members/${e.userId}`, { role: "member", rowVersion: 1 })).status).toBe(200);
    const stale = await as.owner.patch(`/api/v1/locations/${loc}/members/${e.userId}`, { role: "admin", rowVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "version_conflict", details: { rowVersion: 2 } });
  });
});

describe("the collector", () => {
  test("a row changed by two ops of a segment is written once, in its last state, with the union of their columns", async ({ loc, as, thingRow, asOwner }) => {
    const id = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Rake" })).body.id as string;
    const row = await thingRow(id);
    const verdicts = await asOwner(async (ctx) => {
      const changes = new SegmentChanges(ctx);
      const renamed = { ...row, name: "Leaf rake", rowVersion: 2 };
      changes.update(things, renamed, ["name", "rowVersion"]);
      changes.applied(id, 2, null);
      changes.update(things, { ...renamed, colour: "green", rowVersion: 3 }, ["colour", "rowVersion"]);
      changes.applied(id, 3, null);
      return changes.write();
    });
    expect(verdicts.map((v) => v.status === "applied" && v.rowVersion)).toEqual([2, 3]);
    expect(await thingRow(id)).toMatchObject({ name: "Leaf rake", colour: "green", rowVersion: 3 });
  });

  test("an update whose row lacks a column another change of the table sets is refused before anything is sent", async ({ loc, as, thingRow, asOwner }) => {
    const [a, b] = [
      (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Hoe" })).body.id as string,
      (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Spade" })).body.id as string,
    ];
    const written = asOwner(async (ctx) => {
      const changes = new SegmentChanges(ctx);
      changes.update(things, { id: a, name: "Dutch hoe", rowVersion: 2 }, ["name", "rowVersion"]);
      changes.update(things, { id: b, colour: "black", rowVersion: 2 }, ["colour", "rowVersion"]);
      return changes.write();
    });
    await expect(written).rejects.toThrow(/lacks the column/);
    expect(await thingRow(b)).toMatchObject({ name: "Spade", colour: null, rowVersion: 1 });
  });

  test("a command that bumps no version (CommandDef.bumpsVersion false) never writes one, whatever its rows say", async ({ loc, as, thingRow, asOwner }) => {
    const id = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Trowel" })).body.id as string;
    const row = await thingRow(id);
    await asOwner(async (ctx) => {
      const changes = new SegmentChanges({ ...ctx, bumpsVersion: false });
      changes.update(things, { ...row, colour: "grey", rowVersion: 2 }, ["colour", "rowVersion"]);
      return changes.write();
    });
    expect(await thingRow(id)).toMatchObject({ colour: "grey", rowVersion: 1 });
  });
});
