/**
 * A place kind's secret field (an alarm code of a storage unit) is kept as a thing's is: encrypted
 * in secret_values, never in the place's `fields` (which sync), its history, nor the places shape.
 */
import { expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { rows, sql } from "../../../server/db/client.js";
import { apiTest as test } from "../../support/fixtures.js";
import { op, push } from "../../support/push.js";

const CODE = "4417-alarm-code";

test("a place's secret value is stored encrypted and nowhere in plain, on create and update", async ({ svc, loc, as }) => {
  const kind = await as.owner.post(`/api/v1/locations/${loc}/place-kinds`, { name: "Storage unit" });
  expect(kind.status).toBe(201);
  const field = await as.owner.post(`/api/v1/place-kinds/${kind.body.id}/fields`, { key: "alarm", label: "Alarm code", kind: "text", secret: true });
  expect(field.status).toBe(201);
  const made = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Unit 9", kindId: kind.body.id, fields: { alarm: CODE } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.fields).toEqual({});
  const changed = await as.member.patch(`/api/v1/places/${made.body.id}`, { rowVersion: 1, fields: { alarm: `${CODE}-2` } });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  expect(changed.body.fields).toEqual({});

  const db = svc.database.db;
  const [stored] = await rows<{ n: number; plain: boolean }>(
    db,
    sql`SELECT count(*)::int AS n, bool_or(ciphertext LIKE ${`%${CODE}%`}) AS plain FROM secret_values WHERE place_id = ${made.body.id}`,
  );
  expect(stored).toEqual({ n: 1, plain: false });
  const [leaks] = await rows<{ n: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM places WHERE fields::text LIKE ${`%${CODE}%`})
             + (SELECT count(*) FROM history_entries WHERE (before::text || after::text) LIKE ${`%${CODE}%`})
             + (SELECT count(*) FROM sync_log WHERE "row"::text LIKE ${`%${CODE}%`}) AS n`,
  );
  expect(Number(leaks!.n)).toBe(0);
  const [diff] = await rows<{ diff: Record<string, { hidden: boolean; class: string }> }>(
    db,
    sql`SELECT diff FROM history_entries WHERE entity_id = ${made.body.id} AND action = 'place.updated'`,
  );
  expect(diff!.diff["fields.alarm"]).toMatchObject({ class: "secret", hidden: true });
});

test("a dropped place op keeps no secret value in its inbox item (the inbox syncs)", async ({ svc, loc, as }) => {
  const kind = await as.owner.post(`/api/v1/locations/${loc}/place-kinds`, { name: "Locker" });
  expect((await as.owner.post(`/api/v1/place-kinds/${kind.body.id}/fields`, { key: "combo", label: "Combination", kind: "text", secret: true })).status).toBe(
    201,
  );
  const code = `${CODE}-locker`;
  // A parent nobody has: the op is dropped and becomes a sync_drop item.
  const res = await push(as.member, [
    op({ name: "place.create", locationId: loc, args: { id: uuidv7(), name: "Locker 3", kindId: kind.body.id, parentId: uuidv7(), fields: { combo: code } } }),
  ]);
  expect(res.body.results[0].status).toBe("dropped");
  const [leaks] = await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM inbox_items WHERE payload::text LIKE ${`%${code}%`}`);
  expect(leaks!.n).toBe(0);
});
