/**
 * The API reference page (/api/v1/reference, server/http/meta.ts) in Chromium: it renders the
 * document's operations under the server's Content-Security-Policy, with every file from this
 * server (no CDN: the network is closed here, as on a LAN without internet) and no CSP refusal.
 */
import { expect } from "vitest";
import { e2eTest as test } from "./support/fixtures.js";
import { screenshot } from "./support/browser.js";

test("the reference page lists the API's operations, loading only this server's files, with no CSP refusal", async ({ e2e }) => {
  const { page } = await e2e.device({ viewport: { width: 1280, height: 900 } });
  const origin = e2e.svc.config.publicUrl.origin;
  const requested: string[] = [];
  const refused: string[] = [];
  page.on("request", (r) => requested.push(r.url()));
  page.on("console", (m) => {
    if (m.type() === "error") refused.push(m.text());
  });
  const res = await page.goto("/api/v1/reference");
  expect(res?.status()).toBe(200);
  expect(res?.headers()["content-security-policy"]).toContain("script-src 'self'");
  // Tags start closed (about 180 operations); every tag is listed, and one opens to its operations.
  const tag = (name: string) => page.locator(`.opblock-tag[data-tag="${name}"]`);
  const operation = (path: string, method = "get") => page.locator(`.opblock-${method} .opblock-summary-path[data-path="${path}"]`).first();
  await expect.poll(() => tag("things").isVisible(), { timeout: 30_000 }).toBe(true);
  for (const name of ["auth", "places", "sync", "meta"]) expect(await tag(name).isVisible(), name).toBe(true);
  await tag("things").click();
  await expect.poll(() => operation("/api/v1/things/{id}/move", "post").isVisible(), { timeout: 30_000 }).toBe(true);
  // The auth library's routes and the health check are there too.
  await tag("auth").click();
  await expect.poll(() => operation("/api/v1/auth/passkey/authenticate/verify", "post").isVisible(), { timeout: 30_000 }).toBe(true);
  await tag("meta").click();
  await expect.poll(() => operation("/health").isVisible(), { timeout: 30_000 }).toBe(true);
  // An operation opens to its success status.
  await operation("/api/v1/locations/{id}/things", "post").click();
  await screenshot(page, "api-reference");
  await expect
    .poll(
      () =>
        page
          .locator("td.response-col_status")
          .filter({ hasText: /^\s*201\s*$/ })
          .first()
          .isVisible(),
      { timeout: 30_000 },
    )
    .toBe(true);
  expect(requested.filter((u) => !u.startsWith(origin) && !u.startsWith("data:"))).toEqual([]);
  expect(requested).toContain(`${origin}/api/v1/openapi.json`);
  expect(refused).toEqual([]);
});

test("the page's files are served with their types, and a file it does not use is not", async ({ e2e }) => {
  const c = e2e.svc.client();
  const page = await c.get("/api/v1/reference");
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  // Every script is a file (the CSP forbids inline ones), and each loads from here.
  const html = String(page.body);
  expect(html).not.toMatch(/<script>(?!<)/);
  const files = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  expect(files.length).toBe(4);
  for (const f of files) {
    expect(f.startsWith("/api/v1/reference/"), f).toBe(true);
    const r = await c.get(f);
    expect(r.status, f).toBe(200);
    expect(r.headers.get("content-type"), f).toMatch(/^(text\/css|text\/javascript|image\/png)/);
  }
  expect((await c.get("/api/v1/reference/start.js")).body).toContain("/api/v1/openapi.json");
  expect((await c.get("/api/v1/reference/package.json")).status).toBe(404);
  expect((await c.get("/api/v1/reference/..%2Fpackage.json")).status).toBe(404);
});
