/**
 * What the account screens read from and ask of the server (signing in and up, two-factor,
 * passkeys, the emailed links, first-run setup, the account's security, devices, tokens and
 * activity): the screens and parts call these, never the API themselves. Reads are hooks that load
 * through OnlineOnly's useOnlineLoad; writes answer a promise the caller reports.
 */
import { useEffect, useState } from "react";
import type { AuditEntry, AuditList } from "../../../shared/audit.js";
import type { Location, Me } from "../../../shared/locations.js";
import type { OAuthGrant } from "../../../shared/oauth.js";
import type { SessionItem } from "../../../shared/sessions.js";
import type { Token } from "../../../shared/tokens.js";
import { fetchMe, fetchProviders, type SignInProvider } from "../../auth/auth-api.js";
import { listGrants, listPasskeys, listSessions, listTokens, type Passkey } from "../../auth/security-api.js";
import { api } from "../../sync/api.js";
import { useOnlineLoad } from "../../ui/OnlineOnly.js";
import { pageQuery, usePaged } from "../../ui/use-paged.js";

export {
  confirmEmailChange,
  redeemResetCode,
  requestMagicLink,
  requestPasswordReset,
  resetPassword,
  signInWithPassword,
  signOut,
  signUp,
  startProviderSignIn,
  verifyBackupCode,
  verifyMagicLink,
  verifyTotp,
  type SignedIn,
  type SignInProvider,
} from "../../auth/auth-api.js";
export { passkeysSupported, signInWithPasskey } from "../../auth/passkey.js";
export {
  changeEmail,
  changePassword,
  createToken,
  disableTotp,
  fetchRecoveryKit,
  reauthenticate,
  regenerateBackupCodes,
  registerPasskey,
  removePasskey,
  renamePasskey,
  revokeGrant,
  revokeToken,
  signOutOtherSessions,
  signOutSession,
  startTotp,
  type Passkey,
  type TotpEnrolment,
} from "../../auth/security-api.js";

/** First-run setup: the code the server printed at start makes this account the instance admin. */
export const setupInstance = (body: { code: string; name: string; email: string; password: string }) => api("POST", "/api/v1/setup", body);

/** The external providers the server offers; none while offline or from an older server. */
export function useSignInProviders(): SignInProvider[] {
  const [providers, setProviders] = useState<SignInProvider[]>([]);
  useEffect(() => {
    let live = true;
    fetchProviders().then(
      (r) => live && setProviders(r.items),
      () => undefined, // offline or older server: only the built-in ways are shown
    );
    return () => {
      live = false;
    };
  }, []);
  return providers;
}

/** Who is signed in (the server's /me); reload() after a change to the account. */
export function useMe() {
  const [me, setMe] = useState<Me["user"] | null>(null);
  const load = useOnlineLoad(() => fetchMe().then((m) => setMe(m.user)), []);
  return { ...load, me };
}

/** The account's passkeys, read on mount; a failure goes to `onError`. reload() after a change. */
export function usePasskeys(onError: (err: unknown) => void) {
  const [keys, setKeys] = useState<Passkey[] | null>(null);
  const reload = () => listPasskeys().then(setKeys, onError);
  useEffect(() => void reload(), []);
  return { keys, reload };
}

/** The devices signed in to this account; `say` words a failure. */
export function useDevices(say: (message: string) => string) {
  const [sessions, setSessions] = useState<SessionItem[] | null>(null);
  const load = useOnlineLoad(() => listSessions().then(setSessions), [], say);
  return { ...load, sessions };
}

/**
 * The account's personal tokens and connected assistants (every page of each), with the locations
 * they may reach named; reloadTokens() and reloadGrants() after a change. `say` words a failure.
 */
export function useTokens(say: (message: string) => string) {
  const [locations, setLocations] = useState<Location[] | null>(null);
  const [tokens, setTokens] = useState<Token[] | null>(null);
  const [grants, setGrants] = useState<OAuthGrant[] | null>(null);
  const load = useOnlineLoad(
    () => Promise.all([fetchMe().then((m) => setLocations(m.locations)), listTokens().then(setTokens), listGrants().then(setGrants)]),
    [],
    say,
  );
  const reloadTokens = () => listTokens().then(setTokens, load.fail);
  const reloadGrants = () => listGrants().then(setGrants, load.fail);
  return { ...load, locations, tokens, grants, reloadTokens, reloadGrants };
}

/** Audit entries, 20 a page, newest first; `path` is /api/v1/me/audit or /api/v1/locations/{id}/audit. */
export const useAudit = (path: string) => usePaged<AuditEntry>((after) => api<AuditList>("GET", `${path}${pageQuery(20, after)}`), [path]);
