/**
 * Registries as devices and other locations see them: ops pushed through /api/v1/sync/push, the
 * account's registries managed from any of its locations, hidden from other accounts, and streamed
 * by the account-scoped shapes.
 */
import { eq } from "drizzle-orm";
import { Shape, ShapeStream, type Row, type ShapeStreamInterface } from "@electric-sql/client";
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { isKeyRace } from "../../../server/modules/registries/account.js";
import { memberships, typeFields, types } from "../../../server/db/schema/index.js";
import type { TestService } from "../../support/app.js";
import { apiTest } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

const test = apiTest
  /** A second location of the owner's account, with a person who is admin there only. */
  .extend("second", { scope: "file" }, async ({ svc, as }) => {
    const created = await as.owner.post("/api/v1/locations", { name: "Workshop" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const admin = await svc.signedIn("Bea Workshop");
    await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId: created.body.id, userId: admin.userId, role: "admin" });
    return { locationId: created.body.id as string, admin };
  });

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

/** The rows of a shape as a device of `c` has them once it is up to date. */
async function shapeRows(svc: TestService, c: Client, name: string): Promise<Row[]> {
  const stream = new ShapeStream<Row>({ url: `${svc.url}/api/v1/sync/shape/${name}`, headers: { cookie: cookieOf(c) }, subscribe: false });
  const shape = new Shape(stream as unknown as ShapeStreamInterface<Row>);
  try {
    return await shape.rows;
  } finally {
    stream.unsubscribeAll();
  }
}

describe("ops pushed by devices", () => {
  test("an admin's registry ops apply in one batch; a member's are dropped as forbidden into the inbox", async ({ loc, as }) => {
    const typeId = uuidv7();
    const fieldId = uuidv7();
    const kindId = uuidv7();
    const ops = [
      op({ name: "type.create", locationId: loc, args: { id: typeId, name: "Bicycle", icon: "bike" } }),
      op({ name: "type_field.create", locationId: loc, args: { id: fieldId, typeId, key: "frame_size", label: "Frame size", kind: "number", unit: "cm" } }),
      op({ name: "place_kind.create", locationId: loc, args: { id: kindId, name: "Shed" } }),
      op({ name: "type_field.create", locationId: loc, args: { id: uuidv7(), placeKindId: kindId, key: "lock", label: "Lock", kind: "text" } }),
      op({ name: "brand.create", locationId: loc, args: { id: uuidv7(), name: "Brompton" } }),
      op({ name: "tag.create", locationId: loc, args: { id: uuidv7(), name: "Outdoor", colour: "green" } }),
      op({ name: "type_field.update", locationId: loc, baseVersion: 1, args: { id: fieldId, patch: { required: true } } }),
    ];
    const res = await push(as.admin, ops);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(Array(7).fill("applied"));
    const t = (await as.member.get(`/api/v1/locations/${loc}/types`)).body.items.find((x: { id: string }) => x.id === typeId);
    expect(t.fields).toMatchObject([{ id: fieldId, key: "frame_size", unit: "cm", required: true, rowVersion: 2 }]);

    const mine = await push(as.member, [op({ name: "tag.create", locationId: loc, args: { id: uuidv7(), name: "Mine" } })]);
    expect(mine.body.results[0]).toMatchObject({ status: "dropped", reason: "forbidden" });
    const inbox = await as.member.get(`/api/v1/inbox?locationId=${loc}`);
    expect(inbox.body.items.some((i: { id: string }) => i.id === mine.body.results[0].inboxItemId)).toBe(true);
    expect((await as.member.get(`/api/v1/locations/${loc}/tags`)).body.items.map((x: { name: string }) => x.name)).not.toContain("Mine");
  });

  test("a stale baseVersion on type.update touching the same field is dropped as stale; another field merges", async ({ loc, as }) => {
    const id = uuidv7();
    await push(as.admin, [op({ name: "type.create", locationId: loc, args: { id, name: "Kettle" } })]);
    const first = await push(as.admin, [op({ name: "type.update", locationId: loc, baseVersion: 1, args: { id, patch: { name: "Tea kettle" } } })]);
    expect(first.body.results[0]).toMatchObject({ status: "applied", rowVersion: 2 });
    const stale = await push(
      as.owner,
      [op({ name: "type.update", locationId: loc, baseVersion: 1, args: { id, patch: { name: "Water kettle" } } })],
      "device-2",
    );
    expect(stale.body.results[0]).toMatchObject({ status: "dropped", reason: "stale" });
    const merged = await push(as.owner, [op({ name: "type.update", locationId: loc, baseVersion: 1, args: { id, patch: { icon: "kettle" } } })], "device-2");
    expect(merged.body.results[0]).toMatchObject({ status: "applied", rowVersion: 3 });
    const t = (await as.owner.get(`/api/v1/locations/${loc}/types`)).body.items.find((x: { id: string }) => x.id === id);
    expect(t).toMatchObject({ name: "Tea kettle", icon: "kettle" });
  });

  test("the same key added at once by two writers: one field, the other 409 naming the key (on PostgreSQL the unique index decides)", async ({
    svc,
    loc,
    as,
  }) => {
    const type = await as.owner.post(`/api/v1/locations/${loc}/types`, { name: "Racing bike" });
    const body = { key: "gears", label: "Gears", kind: "number" };
    const answers = await Promise.all([
      as.owner.post(`/api/v1/types/${type.body.id}/fields`, body),
      as.admin.post(`/api/v1/types/${type.body.id}/fields`, body),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.status === 409)!.body.error).toMatchObject({ code: "conflict", details: { key: "gears" } });
    // The database's own refusal of a duplicate key is what the command turns into that 409.
    const [t] = await svc.database.db.select({ accountId: types.accountId }).from(types).where(eq(types.id, type.body.id));
    const err = await svc.database.db
      .insert(typeFields)
      .values({ id: uuidv7(), accountId: t!.accountId, typeId: type.body.id, key: "gears", label: "Gears", kind: "number" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isKeyRace(err)).toBe(true);
  });

  test("a field key taken in the same batch is dropped as a conflict naming the key", async ({ loc, as }) => {
    const typeId = uuidv7();
    const res = await push(as.owner, [
      op({ name: "type.create", locationId: loc, args: { id: typeId, name: "Piano" } }),
      op({ name: "type_field.create", locationId: loc, args: { id: uuidv7(), typeId, key: "keys", label: "Keys", kind: "number" } }),
      op({ name: "type_field.create", locationId: loc, args: { id: uuidv7(), typeId, key: "keys", label: "Keys again", kind: "number" } }),
    ]);
    expect(res.body.results.map((r: { status: string; reason?: string }) => r.reason ?? r.status)).toEqual(["applied", "applied", "conflict"]);
  });
});

describe("one registry per account", () => {
  test("an admin of another location of the account manages the registry seen in this one; the location itself stays hidden", async ({ loc, as, second }) => {
    const made = await as.owner.post(`/api/v1/locations/${loc}/types`, { name: "Saw" });
    const seen = await second.admin.get(`/api/v1/locations/${second.locationId}/types`);
    expect(seen.body.items.map((t: { id: string }) => t.id)).toContain(made.body.id);
    const renamed = await second.admin.patch(`/api/v1/types/${made.body.id}`, { rowVersion: 1, name: "Band saw" });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const field = await second.admin.post(`/api/v1/types/${made.body.id}/fields`, { key: "blade", label: "Blade", kind: "text" });
    expect(field.status).toBe(201);
    const inA = (await as.viewer.get(`/api/v1/locations/${loc}/types`)).body.items.find((t: { id: string }) => t.id === made.body.id);
    expect(inA).toMatchObject({ name: "Band saw", fields: [{ key: "blade" }] });
    expect((await second.admin.get(`/api/v1/locations/${loc}/types`)).status).toBe(404);
    // A member of this location who is no admin anywhere of the account is refused; an outsider sees nothing.
    expect((await as.member.patch(`/api/v1/types/${made.body.id}`, { rowVersion: 2, name: "No" })).status).toBe(403);
    expect((await as.outsider.patch(`/api/v1/types/${made.body.id}`, { rowVersion: 2, name: "No" })).status).toBe(404);
    expect((await as.outsider.post(`/api/v1/types/${made.body.id}/fields`, { key: "no", label: "No", kind: "text" })).status).toBe(404);
    expect((await as.outsider.patch(`/api/v1/type-fields/${field.body.id}`, { label: "No" })).status).toBe(404);
  });

  test("a new type field reaches a device of another location of the account on type_fields, not one of another account", async ({ svc, loc, as, second }) => {
    const type = await as.owner.post(`/api/v1/locations/${loc}/types`, { name: "Amplifier" });
    const field = await as.admin.post(`/api/v1/types/${type.body.id}/fields`, { key: "watts", label: "Watts", kind: "number", unit: "W" });
    expect(field.status).toBe(201);
    const there = await shapeRows(svc, second.admin, "type_fields");
    expect(there.find((r) => r.id === field.body.id)).toMatchObject({ key: "watts", unit: "W", type_id: type.body.id });
    const types = await shapeRows(svc, second.admin, "types");
    expect(types.map((r) => r.id)).toContain(type.body.id);
    const other = await shapeRows(svc, as.outsider, "type_fields");
    expect(other.map((r) => r.id)).not.toContain(field.body.id);
    expect((await shapeRows(svc, as.outsider, "types")).map((r) => r.id)).not.toContain(type.body.id);
  });
});
