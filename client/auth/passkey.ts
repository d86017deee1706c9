/**
 * Passkey sign-in (server/auth/passkeys.ts) with the browser's own WebAuthn JSON helpers: the
 * server's options go through PublicKeyCredential.parseRequestOptionsFromJSON and the answer back
 * as credential.toJSON(). A passkey with user verification counts as both factors; without it, a
 * session that needs a second factor stays pending and the app asks for it next.
 */
import { api } from "../sync/api.js";
import type { SignedIn } from "./auth-api.js";

export function passkeysSupported(): boolean {
  return typeof PublicKeyCredential !== "undefined" && typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function";
}

export async function signInWithPasskey(): Promise<SignedIn> {
  const options = await api<PublicKeyCredentialRequestOptionsJSON>("POST", "/api/v1/auth/passkey/authenticate/options", {});
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  if (!(credential instanceof PublicKeyCredential)) throw new Error("No passkey was chosen.");
  // The DOM library types toJSON() as `any`; its shape is the server's AuthenticationResponseJSON.
  const response: unknown = credential.toJSON();
  const result = await api<{ user: SignedIn["user"]; userVerified: boolean }>("POST", "/api/v1/auth/passkey/authenticate/verify", { response });
  return { user: result.user };
}
