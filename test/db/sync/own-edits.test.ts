/**
 * VE8: a device's own earlier ops are not someone else's change. Offline, a person renames a thing
 * twice; both ops carry the version the device last saw, so the second one's base is older than
 * the version the first one made. It must apply (the person's latest word wins), not come back as
 * a stale sync_drop; another person's change since that version still makes it stale.
 */
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { pushResponseSchema } from "../../../sync/protocol.js";
import { op, push } from "../../support/push.js";
import { apiTest as test } from "../../support/fixtures.js";

const statuses = (res: { body: unknown }) => pushResponseSchema.parse(res.body).results.map((r) => r.status);

describe("VE8 a device's own earlier ops", () => {
  test("two offline renames of one thing, in one batch or two, both apply", async ({ loc, as }) => {
    const id = uuidv7();
    expect(statuses(await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, name: "Kettle" } })], "phone"))).toEqual(["applied"]);
    const rename = (name: string) => op({ name: "thing.update", locationId: loc, args: { id, patch: { name } }, baseVersion: 1 });
    expect(statuses(await push(as.member, [rename("Kettle 2"), rename("Kettle 3")], "phone"))).toEqual(["applied", "applied"]);
    expect(statuses(await push(as.member, [rename("Kettle 4")], "phone"))).toEqual(["applied"]);
    expect((await as.member.get(`/api/v1/things/${id}`)).body).toMatchObject({ name: "Kettle 4", rowVersion: 4 });
  });

  test("someone else's change in between still makes the older rename stale", async ({ loc, as }) => {
    const id = uuidv7();
    expect(statuses(await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, name: "Lamp" } })], "phone"))).toEqual(["applied"]);
    const rename = (name: string) => op({ name: "thing.update", locationId: loc, args: { id, patch: { name } }, baseVersion: 1 });
    expect(statuses(await push(as.member, [rename("Lamp 2")], "phone"))).toEqual(["applied"]);
    expect(
      statuses(await push(as.owner, [op({ name: "thing.update", locationId: loc, args: { id, patch: { name: "Desk lamp" } }, baseVersion: 2 })], "laptop")),
    ).toEqual(["applied"]);
    expect(statuses(await push(as.member, [rename("Lamp 3")], "phone"))).toEqual(["dropped"]);
  });

  test("a rename then a delete, offline: the delete applies; another device's rename in between makes it stale", async ({ loc, as }) => {
    const made = async (name: string) => {
      const id = uuidv7();
      expect(statuses(await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, name } })], "phone"))).toEqual(["applied"]);
      return id;
    };
    const mine = await made("Old chair");
    const ops = (id: string) => [
      op({ name: "thing.update", locationId: loc, args: { id, patch: { name: "Broken chair" } }, baseVersion: 1 }),
      op({ name: "thing.delete", locationId: loc, args: { id }, baseVersion: 1 }),
    ];
    expect(statuses(await push(as.member, ops(mine), "phone"))).toEqual(["applied", "applied"]);
    const theirs = await made("Stool");
    expect(statuses(await push(as.member, [ops(theirs)[0]!], "phone"))).toEqual(["applied"]);
    expect(
      statuses(
        await push(as.member, [op({ name: "thing.update", locationId: loc, args: { id: theirs, patch: { colour: "red" } }, baseVersion: 2 })], "tablet"),
      ),
    ).toEqual(["applied"]);
    expect(statuses(await push(as.member, [ops(theirs)[1]!], "phone"))).toEqual(["dropped"]);
  });

  test("the device's own earlier rename and another device's colour: a second rename still merges by field", async ({ loc, as }) => {
    const id = uuidv7();
    expect(statuses(await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, name: "Mug" } })], "phone"))).toEqual(["applied"]);
    expect(
      statuses(await push(as.member, [op({ name: "thing.update", locationId: loc, args: { id, patch: { name: "Mug 2" } }, baseVersion: 1 })], "phone")),
    ).toEqual(["applied"]);
    expect(
      statuses(await push(as.owner, [op({ name: "thing.update", locationId: loc, args: { id, patch: { colour: "blue" } }, baseVersion: 2 })], "laptop")),
    ).toEqual(["applied"]);
    expect(
      statuses(await push(as.member, [op({ name: "thing.update", locationId: loc, args: { id, patch: { name: "Mug 3" } }, baseVersion: 1 })], "phone")),
    ).toEqual(["applied"]);
    expect((await as.member.get(`/api/v1/things/${id}`)).body).toMatchObject({ name: "Mug 3", colour: "blue", rowVersion: 4 });
  });
});
