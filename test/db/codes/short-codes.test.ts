/**
 * Short codes (migration 0019): every thing and place gets one when it is inserted, by whatever
 * path; codes are unique across things, places and printed labels; a code already taken is drawn
 * again rather than failing the write.
 */
import { eq, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { CODE_ALPHABET, CODE_LENGTH, normalizeCode } from "../../../shared/codes.js";
import { rows } from "../../../server/db/client.js";
import { codes, places, things, types } from "../../../server/db/schema/index.js";
import { apiTest as test } from "../../support/fixtures.js";
import { op, push } from "../../support/push.js";

const CODE = new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`);

describe("short codes", () => {
  test("a thing made through REST and a place made by a pushed op each have a code, registered for them", async ({ svc, loc, as }) => {
    const made = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Ladder" });
    expect(made.status).toBe(201);
    const thing = await as.member.get(`/api/v1/things/${made.body.id}`);
    expect(thing.body.shortCode).toMatch(CODE);
    const placeId = uuidv7();
    const pushed = await push(as.member, [op({ name: "place.create", locationId: loc, args: { id: placeId, name: "Loft" } })]);
    expect(pushed.body.results[0].status).toBe("applied");
    const db = svc.database.db;
    const [place] = await db.select({ shortCode: places.shortCode }).from(places).where(eq(places.id, placeId));
    expect(place!.shortCode).toMatch(CODE);
    const registered = await db.select().from(codes).where(eq(codes.code, place!.shortCode!));
    expect(registered).toMatchObject([{ placeId, thingId: null, locationId: loc }]);
    expect((await db.select().from(codes).where(eq(codes.code, thing.body.shortCode)))[0]!.thingId).toBe(made.body.id);
  });

  test("a 1000-op push gives 1000 different codes, every one registered", async ({ svc, loc, as }) => {
    const ids = Array.from({ length: 1000 }, () => uuidv7());
    const res = await push(
      as.member,
      ids.map((id, i) => op({ name: "thing.create", locationId: loc, args: { id, name: `Jar ${i}` } })),
    );
    expect(res.body.results.every((r: { status: string }) => r.status === "applied")).toBe(true);
    const db = svc.database.db;
    const got = await db
      .select({ id: things.id, code: things.shortCode, owner: codes.thingId })
      .from(things)
      .leftJoin(codes, eq(codes.code, things.shortCode))
      .where(sql`${things.id} = ANY(${sql.raw(`ARRAY[${ids.map((i) => `'${i}'`).join(",")}]::uuid[]`)})`);
    expect(got).toHaveLength(1000);
    expect(new Set(got.map((g) => g.code)).size).toBe(1000);
    expect(got.every((g) => g.owner === g.id && CODE.test(g.code ?? ""))).toBe(true);
  });

  test("a code already taken is drawn again: the thing gets another, the label keeps its own", async ({ svc, loc }) => {
    const db = svc.database.db;
    const [type] = await db.select({ id: types.id }).from(types).limit(1);
    const thingId = uuidv7();
    // The same seed makes the trigger draw the code a label took a moment before.
    const taken = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT setseed(0.25)`);
      const c = (await rows<{ c: string }>(tx, sql`SELECT app_short_code() AS c`))[0]!.c;
      await tx.insert(codes).values({ id: uuidv7(), locationId: loc, code: c, sheetId: uuidv7() });
      await tx.execute(sql`SELECT setseed(0.25)`);
      const [unplaced] = await tx.select({ id: places.id }).from(places).where(eq(places.locationId, loc)).limit(1);
      await tx.insert(things).values({ id: thingId, locationId: loc, placeId: unplaced!.id, typeId: type!.id, name: "Crate" });
      return c;
    });
    const [thing] = await db.select({ code: things.shortCode }).from(things).where(eq(things.id, thingId));
    expect(thing!.code).toMatch(CODE);
    expect(thing!.code).not.toBe(taken);
    const [label] = await db.select().from(codes).where(eq(codes.code, taken));
    expect(label!.thingId).toBeNull();
    expect((await db.select().from(codes).where(eq(codes.code, thing!.code!)))[0]!.thingId).toBe(thingId);
  });

  test("typed codes read the same however they are written", () => {
    expect(normalizeCode(" k7m-4qx ")).toBe("K7M4QX");
    expect(normalizeCode("K7M 4QX")).toBe("K7M4QX");
    // 0, O, 1, I, L and U are never in a code.
    expect(normalizeCode("K0M4QX")).toBeNull();
    expect(normalizeCode("KLM4QX")).toBeNull();
    expect(normalizeCode("K7M4Q")).toBeNull();
  });
});
