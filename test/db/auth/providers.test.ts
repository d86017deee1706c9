/** GET /api/v1/auth/providers tells the sign-in page which external providers it may offer. */
import { afterAll, beforeAll, expect, test } from "vitest";
import { startService, type TestService } from "../../support/app.js";
import { startOidcProvider, type TestOidcProvider } from "../../support/oidc-provider.js";

let idp: TestOidcProvider;
let svc: TestService;
let bare: TestService;

beforeAll(async () => {
  idp = await startOidcProvider();
  svc = await startService({ SVC_OIDC_ISSUER: idp.issuer, SVC_OIDC_CLIENT_ID: idp.clientId, SVC_OIDC_CLIENT_SECRET: idp.clientSecret });
  bare = await startService();
});
afterAll(async () => {
  await svc?.close();
  await bare?.close();
  await idp?.close();
});

test("a discovered OIDC provider is listed by host, without client id or secret; none without configuration", async () => {
  const res = await svc.client().get("/api/v1/auth/providers");
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ items: [{ id: "oidc", host: new URL(idp.issuer).host }] });
  expect(JSON.stringify(res.body)).not.toContain(idp.clientSecret);
  expect((await bare.client().get("/api/v1/auth/providers")).body).toEqual({ items: [] });
});
