import { afterAll, beforeAll, expect, test } from "vitest";
import { startService, type TestService } from "../support/app.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => svc?.close());

test("the OpenAPI document is served without sign-in and lists the core paths", async () => {
  const res = await svc.client().get("/api/v1/openapi.json");
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe("3.1.0");
  const paths = Object.keys(res.body.paths);
  for (const p of [
    "/api/v1/me",
    "/api/v1/locations",
    "/api/v1/locations/{id}",
    "/api/v1/locations/{id}/places",
    "/api/v1/places/{id}",
    "/api/v1/locations/{id}/things",
    "/api/v1/things/{id}",
    "/api/v1/things/{id}/move",
    "/api/v1/things/{id}/history",
    "/api/v1/history/{eventId}/undo",
    "/api/v1/locations/{id}/members",
    "/api/v1/locations/{id}/invites",
    "/api/v1/invites/accept",
    "/api/v1/auth/sign-up",
  ]) {
    expect(paths).toContain(p);
  }
  const history = res.body.paths["/api/v1/things/{id}/history"].get;
  expect(history.security).toContainEqual({ bearer: [] });
  expect(JSON.stringify(history.responses.default)).toContain("undoable_until");
});

test("health answers without sign-in", async () => {
  const res = await svc.client().get("/health");
  expect(res.status).toBe(200);
});
