/** Helpers for sign-in tests: error assertions, TOTP set-up, fresh sign-ins. */
import { expect } from "vitest";
import type { HttpClient, HttpResponse, TestService } from "./app.js";
import { freshTotpCode } from "./totp.js";

export const PASSWORD = "correct horse battery";

export type Client = HttpClient & { email: string; userId: string };

/** Asserts our one error body shape with the given status and code. */
export function expectError(res: HttpResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe("string");
}

/** Every key anywhere in a JSON value. */
export function keysDeep(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysDeep);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...keysDeep(v)]);
  return [];
}

/** Turns TOTP on for a signed-in client and proves it, as a person with an authenticator app would. */
export async function enableTotp(c: HttpClient, password = PASSWORD): Promise<{ totpURI: string; backupCodes: string[] }> {
  const enabled = await c.post("/api/v1/auth/two-factor/enable", { password });
  expect(enabled.status).toBe(200);
  const { totpURI, backupCodes } = enabled.body as { totpURI: string; backupCodes: string[] };
  const verified = await c.post("/api/v1/auth/two-factor/verify-totp", { code: await freshTotpCode(totpURI) });
  expect(verified.status).toBe(200);
  return { totpURI, backupCodes };
}

/** A new device signing in with email and password. */
export async function signInWithPassword(svc: TestService, email: string, password = PASSWORD, headers: Record<string, string> = {}) {
  const c = svc.client();
  const res = await c.request("POST", "/api/v1/auth/sign-in/email", { email, password }, headers);
  return { c, res };
}

/** A fresh address for this test file. */
let n = 0;
export function freshEmail(prefix = "user"): string {
  return `${prefix}${++n}-${Date.now()}@example.test`;
}
