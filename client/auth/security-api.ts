/**
 * What a signed-in person manages about their own account, against the server's routes: the
 * library's two-factor, password and passkey routes under /api/v1/auth, and ours under
 * /api/v1/me (re-authentication, email, recovery kit, devices), /api/v1/tokens and
 * /api/v1/oauth/grants. Every list pages with `next_cursor` (apiAll follows it).
 */
import type { OAuthGrant } from "../../shared/oauth.js";
import type { RecoveryKit } from "../../shared/reauth.js";
import type { SessionItem } from "../../shared/sessions.js";
import type { Token, TokenCreate, TokenCreated } from "../../shared/tokens.js";
import { api, apiAll } from "../sync/api.js";

export interface TotpEnrolment {
  totpURI: string;
  backupCodes: string[];
}

/** Starts enrolment: two-factor is on only once a first code from the app is verified. */
export const startTotp = (password: string) => api<TotpEnrolment>("POST", "/api/v1/auth/two-factor/enable", { password });
export const disableTotp = (password: string) => api<unknown>("POST", "/api/v1/auth/two-factor/disable", { password });
/** New backup codes; the old ones stop working. */
export const regenerateBackupCodes = (password: string) =>
  api<{ backupCodes: string[] }>("POST", "/api/v1/auth/two-factor/generate-backup-codes", { password });

export const reauthenticate = (password: string) => api<{ ok: true; validUntil: string }>("POST", "/api/v1/me/reauthenticate", { password });
/** 403 reauth_required unless this session re-authenticated in the last few minutes. */
export const fetchRecoveryKit = () => api<RecoveryKit>("GET", "/api/v1/me/recovery-kit");

export const changePassword = (currentPassword: string, newPassword: string, revokeOtherSessions: boolean) =>
  api<unknown>("POST", "/api/v1/auth/change-password", { currentPassword, newPassword, revokeOtherSessions });
/** A confirmation link goes to the new address; the address changes when it is opened. */
/** Without `password`, the session must have re-authenticated just before (a passkey, say). */
export const changeEmail = (email: string, password?: string) =>
  api<{ status: "confirmation_sent"; email: string }>("POST", "/api/v1/me/email", { email: email.trim(), ...(password ? { password } : {}) });

export interface Passkey {
  id: string;
  name: string | null;
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

export const listPasskeys = () => api<{ items: Passkey[] }>("GET", "/api/v1/auth/passkey/list").then((r) => r.items);
export const renamePasskey = (id: string, name: string) => api<unknown>("POST", "/api/v1/auth/passkey/update", { id, name: name.trim() });
export const removePasskey = (id: string) => api<unknown>("POST", "/api/v1/auth/passkey/delete", { id });

/** Registers a passkey on this device (or a phone nearby) with the browser's own WebAuthn JSON helpers. */
export async function registerPasskey(name: string): Promise<void> {
  const options = await api<PublicKeyCredentialCreationOptionsJSON>("POST", "/api/v1/auth/passkey/register/options", {});
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  if (!(credential instanceof PublicKeyCredential)) throw new Error("No passkey was made.");
  // The DOM library types toJSON() as `any`; its shape is the server's RegistrationResponseJSON.
  const response: unknown = credential.toJSON();
  await api("POST", "/api/v1/auth/passkey/register/verify", { response, name: name.trim() });
}

export const listSessions = () => apiAll<SessionItem>("/api/v1/me/sessions");
export const signOutSession = (id: string) => api<unknown>("DELETE", `/api/v1/me/sessions/${id}`);
export const signOutOtherSessions = () => api<{ ok: true; signedOut: number }>("DELETE", "/api/v1/me/sessions");

export const listTokens = () => apiAll<Token>("/api/v1/tokens");
export const createToken = (body: TokenCreate) => api<TokenCreated>("POST", "/api/v1/tokens", body);
export const revokeToken = (id: string) => api<Token>("DELETE", `/api/v1/tokens/${id}`);

export const listGrants = () => apiAll<OAuthGrant>("/api/v1/oauth/grants");
export const revokeGrant = (id: string) => api<OAuthGrant>("DELETE", `/api/v1/oauth/grants/${id}`);
