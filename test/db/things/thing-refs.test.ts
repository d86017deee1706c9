/**
 * What thing commands load about a location (server/modules/things/refs.ts): the Unplaced place,
 * the owner account, and the account's types and live fields come in one statement as jsonb, so
 * they must reach the commands exactly as drizzle's own select of each table gives them (dates as
 * Dates, arrays as arrays, nulls as nulls), and only what the actor's RLS lets it see.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { expect } from "vitest";
import { asSystem, userActor, withActor } from "../../../server/db/actor.js";
import { locations, places, typeFields, types } from "../../../server/db/schema/index.js";
import { loadRefs } from "../../../server/modules/things/refs.js";
import { apiTest as test } from "../../support/fixtures.js";

test("types, fields, Unplaced and account come as drizzle selects them, through RLS", async ({ svc, loc, as }) => {
  const type = (await as.admin.post(`/api/v1/locations/${loc}/types`, { name: "Refs probe", icon: "drill", containerByDefault: true })).body as { id: string };
  for (const body of [
    { key: "size", label: "Size", kind: "select", options: ["S", "M", "L"] },
    { key: "weight", label: "Weight", kind: "number", unit: "kg" },
    { key: "old", label: "Old", kind: "text" },
  ])
    expect((await as.admin.post(`/api/v1/types/${type.id}/fields`, body)).status).toBe(201);
  const db = svc.database.db;
  // An archived field is left out, as the select it replaces left it out.
  await asSystem(db, (tx) =>
    tx
      .update(typeFields)
      .set({ archivedAt: new Date() })
      .where(and(eq(typeFields.typeId, type.id), eq(typeFields.key, "old"))),
  );
  const [location] = await db.select().from(locations).where(eq(locations.id, loc));
  const actor = userActor({ id: as.member.userId, name: as.member.email }, { mfaProven: true });
  const refs = await withActor(db, actor, (tx) => loadRefs(tx, { locationIds: [loc] }));

  const wantTypes = await db
    .select()
    .from(types)
    .where(and(eq(types.accountId, location!.accountId), isNull(types.deletedAt)));
  expect(new Map([...refs.types].sort())).toEqual(new Map(wantTypes.map((t) => [t.id, t] as const).sort()));
  expect(refs.types.get(type.id)!.createdAt).toBeInstanceOf(Date);
  const wantFields = await db
    .select()
    .from(typeFields)
    .where(and(inArray(typeFields.typeId, [type.id]), isNull(typeFields.archivedAt), isNull(typeFields.deletedAt)));
  expect(wantFields.map((f) => f.key).sort()).toEqual(["size", "weight"]);
  expect([...refs.fieldsOf(type.id).values()].map((f) => f.field).sort((a, b) => a.key.localeCompare(b.key))).toEqual(
    wantFields.sort((a, b) => a.key.localeCompare(b.key)),
  );
  const [unplaced] = await db
    .select({ id: places.id })
    .from(places)
    .where(and(eq(places.locationId, loc), eq(places.isUnplaced, true)));
  expect(refs.unplacedByLocation.get(loc)).toBe(unplaced!.id);
  expect(refs.accountOf.get(loc)).toBe(location!.accountId);
  expect(refs.defaultTypeByLocation.get(loc)).toBe(wantTypes.find((t) => t.builtinKey === "thing")!.id);

  // Someone who is no member of the location sees none of it.
  const stranger = userActor({ id: as.outsider.userId, name: as.outsider.email }, { mfaProven: true });
  const theirs = await withActor(db, stranger, (tx) => loadRefs(tx, { locationIds: [loc] }));
  expect(theirs.types.size).toBe(0);
  expect(theirs.unplacedByLocation.size).toBe(0);
});
