/**
 * Sign-in, sign-up and the second-factor step against the server's auth routes (better-auth at
 * /api/v1/auth, plus ours: sign-up, magic-link verify, reset-code). Every sign-in makes a session;
 * for a user with two-factor on it stays pending (403 mfa_required everywhere) until a code is
 * verified (server/auth/second-factor.ts).
 */
import type { Me } from "../../shared/locations.js";
import { api } from "../sync/api.js";

export interface SignedIn {
  user: { id: string; name: string };
  /** The session waits for a second factor. */
  twoFactorRedirect?: boolean;
  twoFactorMethods?: string[];
}

/** An address with @ signs in by email; anything else is a managed account's username. */
export function signInWithPassword(login: string, password: string): Promise<SignedIn> {
  return login.includes("@")
    ? api<SignedIn>("POST", "/api/v1/auth/sign-in/email", { email: login.trim(), password })
    : api<SignedIn>("POST", "/api/v1/auth/sign-in/username", { username: login.trim(), password });
}

export function signUp(body: { email: string; password: string; name: string; invite?: string }): Promise<{ status: "accepted" }> {
  return api("POST", "/api/v1/auth/sign-up", body);
}

export function verifyTotp(code: string): Promise<unknown> {
  return api("POST", "/api/v1/auth/two-factor/verify-totp", { code: code.replace(/\s/g, "") });
}

export function verifyBackupCode(code: string): Promise<unknown> {
  return api("POST", "/api/v1/auth/two-factor/verify-backup-code", { code: code.trim() });
}

/** The link in the mail opens /magic#token=..., and the page redeems it with a POST. */
export function requestMagicLink(email: string): Promise<unknown> {
  return api("POST", "/api/v1/auth/sign-in/magic-link", { email: email.trim() });
}

export function verifyMagicLink(token: string): Promise<SignedIn> {
  return api<SignedIn>("POST", "/api/v1/auth/magic-link/verify", { token });
}

export function requestPasswordReset(email: string): Promise<unknown> {
  return api("POST", "/api/v1/auth/request-password-reset", { email: email.trim(), redirectTo: "/reset" });
}

export function resetPassword(token: string, newPassword: string): Promise<unknown> {
  return api("POST", "/api/v1/auth/reset-password", { token, newPassword });
}

/** The link mailed to a new sign-in address opens /confirm-email#token=..., and the page confirms it with a POST. */
export function confirmEmailChange(token: string): Promise<{ email: string }> {
  return api("POST", "/api/v1/auth/email-change/confirm", { token });
}

/** A managed account's person sets their password with the code an admin handed over. */
export function redeemResetCode(username: string, code: string, password: string): Promise<unknown> {
  return api("POST", "/api/v1/auth/reset-code", { username: username.trim(), code: code.trim(), password });
}

export function signOut(): Promise<unknown> {
  return api("POST", "/api/v1/auth/sign-out", {});
}

export function fetchMe(): Promise<Me> {
  return api<Me>("GET", "/api/v1/me");
}

export function acceptInvite(token: string): Promise<{ locationId: string; role: string }> {
  return api("POST", "/api/v1/invites/accept", { token });
}

export interface SignInProvider {
  id: "oidc" | "social";
  host: string;
}

/** External providers the server offers (configured and discovered at its start). */
export function fetchProviders(): Promise<{ items: SignInProvider[] }> {
  return api<{ items: SignInProvider[] }>("GET", "/api/v1/auth/providers");
}

/** Starts sign-in at an external provider; the server answers where to send the browser. */
export function startProviderSignIn(provider: SignInProvider["id"]): Promise<{ url: string }> {
  return api<{ url: string }>("POST", "/api/v1/auth/sign-in/social", { provider, callbackURL: "/" });
}
