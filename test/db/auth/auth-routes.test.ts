/**
 * The authentication library's route table, audited (spec "Sign-up" 4: its own sign-up, admin
 * endpoints, email codes, session listing and others are switched off). A library upgrade that
 * adds or re-enables a route fails here until someone decides about it.
 */
import { expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { DISABLED_PATHS } from "../../../server/auth/auth.js";

type Endpoint = { path?: string; options?: { method?: string | string[]; metadata?: { SERVER_ONLY?: boolean; scope?: string } } };

const REACHABLE = [
  "GET /delete-user/callback (blocked by our mount)",
  "GET /error",
  "GET /ok",
  "GET|POST /get-session",
  "GET /passkey/list",
  "GET /reset-password/:token (blocked by our mount)",
  "GET|POST /callback/:id",
  "POST /change-password",
  "POST /link-social",
  "POST /passkey/authenticate/options",
  "POST /passkey/authenticate/verify",
  "POST /passkey/delete",
  "POST /passkey/register/options",
  "POST /passkey/register/verify",
  "POST /passkey/update",
  "POST /request-password-reset",
  "POST /reset-password",
  "POST /sign-in/email",
  "POST /sign-in/magic-link",
  "POST /sign-in/social",
  "POST /sign-in/username",
  "POST /sign-out",
  "POST /two-factor/disable",
  "POST /two-factor/enable",
  "POST /two-factor/generate-backup-codes",
  "POST /two-factor/get-totp-uri",
  "POST /two-factor/verify-backup-code",
  "POST /two-factor/verify-totp",
  "POST /update-user",
];

test("only the library routes we decided on are reachable over HTTP", ({ svc }) => {
  const found = Object.values(svc.services.auth.api as Record<string, Endpoint>)
    .filter((e) => typeof e.path === "string" && !DISABLED_PATHS.includes(e.path))
    // `scope: "server"` only hides a route from the library's OpenAPI; SERVER_ONLY keeps it off HTTP.
    .filter((e) => !e.options?.metadata?.SERVER_ONLY)
    .map((e) => {
      const m = e.options?.method ?? "GET";
      const route = `${(Array.isArray(m) ? m : [m]).join("|")} ${e.path}`;
      return ["GET /delete-user/callback", "GET /reset-password/:token"].includes(route) ? `${route} (blocked by our mount)` : route;
    });
  expect([...new Set(found)].sort()).toEqual([...REACHABLE].sort());
});

test("the blocked ones answer 404 before the library sees them, and switched-off ones 404 too", async ({ svc }) => {
  for (const path of ["/api/v1/auth/reset-password/some-token?callbackURL=/", "/api/v1/auth/delete-user/callback?token=x"]) {
    expect((await svc.client().get(path)).status).toBe(404);
  }
  const c = await svc.signedIn();
  // (POST /magic-link/verify is ours; the library's GET of that path is the one switched off.)
  expect((await c.get("/api/v1/auth/magic-link/verify?token=x")).status).toBe(404);
  for (const path of DISABLED_PATHS.filter((p) => p !== "/magic-link/verify")) {
    const res = await c.post(`/api/v1/auth${path}`, {});
    expect({ path, status: res.status }).toEqual({ path, status: 404 });
  }
});
