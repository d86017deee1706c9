/**
 * A thing's custom field values get the same checks as a place's (server/modules/registries/
 * field-values.ts): a required field is needed when a finished thing is made (never on a capture
 * draft, which exists to be completed later), and a file field names a file of the thing's own location.
 */
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import type { TestService } from "../../support/app.js";
import { PNG } from "../../support/hostile.js";
import { apiTest } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

async function upload(svc: TestService, who: Client, locationId: string): Promise<string> {
  const res = await fetch(`${svc.url}/api/v1/files?locationId=${locationId}`, {
    method: "POST",
    headers: { "content-type": "image/png", origin: svc.config.publicUrl.origin, cookie: [...who.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    body: PNG,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const test = apiTest.extend("receipted", { scope: "file" }, async ({ loc, as }) => {
  const type = await as.admin.post(`/api/v1/locations/${loc}/types`, { name: "Receipted" });
  for (const f of [
    { key: "serial_no", label: "Serial number", kind: "text", required: true },
    { key: "receipt", label: "Receipt", kind: "file" },
  ])
    expect((await as.admin.post(`/api/v1/types/${type.body.id}/fields`, f)).status).toBe(201);
  return type.body.id as string;
});

describe("custom field values on things", () => {
  test("a required field is needed to make a thing, by REST and push alike; a capture draft may leave it out", async ({ loc, as, receipted }) => {
    const missing = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Drill", typeId: receipted });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: "validation_failed", details: { field: "serial_no" } });
    const made = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Drill", typeId: receipted, fields: { serial_no: "D-1" } });
    expect(made.status).toBe(201);
    const id = uuidv7();
    const pushed = await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id, name: "Saw", typeId: receipted } })]);
    expect(pushed.body.results[0]).toMatchObject({ status: "dropped", reason: "invalid" });
    const draft = await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id: uuidv7(), name: "Sander", typeId: receipted } })]);
    expect(draft.body.results[0].status).toBe("applied");
  });

  test("a file field names a file uploaded in the thing's own location, on create and update", async ({ svc, loc, as, receipted }) => {
    const own = await upload(svc, as.member, loc);
    const other = await as.owner.post(`/api/v1/locations`, { name: "Storage unit" });
    expect(other.status).toBe(201);
    const elsewhere = await upload(svc, as.owner, other.body.id as string);
    const make = (receipt: string) =>
      as.owner.post(`/api/v1/locations/${loc}/things`, { name: "Mower", typeId: receipted, fields: { serial_no: "M-1", receipt } });
    expect((await make(uuidv7())).status).toBe(404);
    expect((await make(elsewhere)).status).toBe(404);
    const made = await make(own);
    expect(made.status).toBe(201);
    const patch = (receipt: string) => as.owner.patch(`/api/v1/things/${made.body.id}`, { rowVersion: 1, fields: { receipt } });
    const refused = await patch(elsewhere);
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toMatch(/file/);
    expect((await as.owner.get(`/api/v1/things/${made.body.id}`)).body.rowVersion).toBe(1);
  });
});
