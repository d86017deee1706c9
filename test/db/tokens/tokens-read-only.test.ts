/**
 * A read token's writes are refused for its scope, whatever its creator's role: the message names
 * the token's read access (not "Your role (owner) cannot ..."), and nothing is written.
 */
import { describe, expect } from "vitest";
import { errorBodySchema } from "../../../shared/errors.js";
import { tokenCreatedSchema } from "../../../shared/tokens.js";
import type { TestService } from "../../support/app.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { v7 as uuidv7 } from "uuid";
import { op, push } from "../../support/push.js";
import { PROTOCOL } from "../../../sync/protocol.js";

const readToken = async (c: Client, loc: string) => {
  const res = await c.post("/api/v1/tokens", { name: "Dashboard", scope: "read", locationIds: [loc] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return tokenCreatedSchema.parse(res.body).secret;
};

const bearer = (svc: TestService, secret: string) => {
  const c = svc.client();
  const auth = { authorization: `Bearer ${secret}` };
  return (method: string, path: string, body?: unknown) => c.request(method, path, body, auth);
};

describe("personal tokens: a read token's writes", () => {
  test("every REST write an owner's read token tries is 403 naming the token's read access, and nothing changes", async ({ svc, loc, as }) => {
    const thing = await as.owner.post(`/api/v1/locations/${loc}/things`, { name: "Lamp" });
    const place = await as.owner.post(`/api/v1/locations/${loc}/places`, { name: "Attic" });
    expect([thing.status, place.status]).toEqual([201, 201]);
    const event = (await as.owner.get(`/api/v1/things/${thing.body.id}/history`)).body.items[0].id as string;
    // A capture leaves a draft in the inbox for the token to try to accept and dismiss.
    const captured = await push(as.owner, [op({ name: "thing.capture", locationId: loc, args: { id: uuidv7(), name: "Captured" } })]);
    expect(captured.body.results[0].status).toBe("applied");
    const draft = ((await as.owner.get(`/api/v1/inbox?locationId=${loc}&kind=draft`)).body.items as { id: string }[])[0]!.id;
    const before = await as.owner.get(`/api/v1/locations/${loc}/things`);
    const call = bearer(svc, await readToken(as.owner, loc));
    const writes: [string, string, unknown?][] = [
      ["POST", `/api/v1/locations/${loc}/things`, { name: "Ladder" }],
      ["PATCH", `/api/v1/things/${thing.body.id}`, { name: "Lamp (token)", rowVersion: thing.body.rowVersion }],
      ["POST", `/api/v1/things/${thing.body.id}/move`, { placeId: place.body.id, rowVersion: thing.body.rowVersion }],
      ["DELETE", `/api/v1/things/${thing.body.id}`, { rowVersion: thing.body.rowVersion }],
      ["POST", `/api/v1/locations/${loc}/places`, { name: "Cellar" }],
      ["PATCH", `/api/v1/places/${place.body.id}`, { name: "Loft", rowVersion: place.body.rowVersion }],
      ["POST", `/api/v1/history/${event}/undo`],
      ["POST", `/api/v1/inbox/${draft}/accept`, {}],
      ["POST", `/api/v1/inbox/${draft}/dismiss`],
    ];
    for (const [method, path, body] of writes) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(403);
      const error = errorBodySchema.parse(res.body).error;
      expect(error.code).toBe("forbidden");
      expect(error.message).toMatch(/^This token can only read; make a token with write access \(scope "write"\) to do "[a-z._]+"\.$/);
      expect(error.message).not.toContain("role");
      expect(error.details).toMatchObject({ reason: "read_only_scope", scope: "read" });
    }
    const after = await as.owner.get(`/api/v1/locations/${loc}/things`);
    expect(after.body).toEqual(before.body);
    expect((await as.owner.get(`/api/v1/things/${thing.body.id}`)).body.name).toBe("Lamp");
    expect(((await as.owner.get(`/api/v1/inbox?locationId=${loc}&kind=draft`)).body.items as { id: string }[]).map((i) => i.id)).toContain(draft);
    const places = JSON.stringify((await as.owner.get(`/api/v1/locations/${loc}/places`)).body);
    expect([places.includes("Attic"), places.includes("Loft"), places.includes("Cellar")]).toEqual([true, false, false]);
  });

  test("a read token's push is refused before any op is looked at (no token may push), and nothing is written", async ({ svc, loc, as }) => {
    const call = bearer(svc, await readToken(as.owner, loc));
    const res = await call("POST", "/api/v1/sync/push", {
      clientId: "script",
      protocol: PROTOCOL,
      ops: [op({ name: "thing.create", locationId: loc, args: { id: "0190a0b0-0000-7000-8000-000000000001", name: "Pushed" } })],
    });
    expect(res.status).toBe(403);
    expect(errorBodySchema.parse(res.body).error.message).toBe("A personal token cannot reach this route; use a signed-in session.");
    const list = await as.owner.get(`/api/v1/locations/${loc}/things`);
    expect(JSON.stringify(list.body)).not.toContain("Pushed");
  });

  test("a viewer's read token is refused for its scope too: the scope is what a new token would change", async ({ svc, loc, as }) => {
    const call = bearer(svc, await readToken(as.viewer, loc));
    const res = await call("POST", `/api/v1/locations/${loc}/things`, { name: "Ladder" });
    expect(res.status).toBe(403);
    expect(errorBodySchema.parse(res.body).error.message).toContain("This token can only read");
  });
});
