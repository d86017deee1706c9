/**
 * Who is signed in on this device, offline-first: the last user's data opens at once from
 * IndexedDB, and the server is asked in the background. A lost session does not hide the data or
 * the outbox (nothing captured is lost); it shows a banner and pushing waits for a new sign-in.
 *
 * The sync engine and Dexie are loaded only once someone is (or was) signed in on this device: the
 * sign-in pages draw without them, so a phone downloads a small first chunk (vite.config.ts prints
 * its size). `preloadSignedIn` fetches them while a person types their password.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { fetchMe } from "../auth/auth-api.js";
import type { InventoryDb } from "../db/database.js";
import { currentUser, setCurrentUser, type DeviceUser } from "../db/device.js";
import { ApiError } from "../sync/api.js";
import type { SyncEngine } from "../sync/engine.js";

export type SessionState =
  | { kind: "loading" }
  | { kind: "signed_out" }
  | { kind: "mfa" }
  | { kind: "ready"; user: DeviceUser; db: InventoryDb; engine: SyncEngine; sessionLost: boolean };

interface SessionApi {
  state: SessionState;
  /** After a sign-in (or a second factor) succeeded: find out who we are and start syncing. */
  refresh: () => Promise<void>;
  signOutLocally: () => Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

type SignedInCode = [typeof import("../sync/engine.js"), typeof import("../db/database.js")];
let signedInCode: Promise<SignedInCode> | undefined;

/** The code of a signed-in person (the sync engine, Dexie and the user's database), fetched once. */
export function preloadSignedIn(): Promise<SignedInCode> {
  signedInCode ??= Promise.all([import("../sync/engine.js"), import("../db/database.js")]).catch((err: unknown) => {
    // A failed fetch (offline before the service worker cached it) is tried again next time.
    signedInCode = undefined;
    throw err;
  });
  return signedInCode;
}

/** Lets the browser push the outbox later even if every tab is closed (where it can). */
function registerBackgroundSync(): void {
  void navigator.serviceWorker?.ready
    .then((reg) => (reg as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync?.register("outbox"))
    .catch(() => undefined);
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ kind: "loading" });
  const engineRef = useRef<SyncEngine | undefined>(undefined);
  /** The engine stopped on a 401 or mfa_required: it starts over after the next sign-in. */
  const blockedRef = useRef(false);

  const open = useCallback(async (user: DeviceUser, sessionLost: boolean) => {
    const [{ SyncEngine }, { userDb }] = await preloadSignedIn();
    let engine = engineRef.current;
    const db = userDb(user.id);
    if (!engine || engine.userId !== user.id) {
      engine?.stop();
      engine = new SyncEngine(user.id, db, {
        signedOut: () => {
          blockedRef.current = true;
          setState((s) => (s.kind === "ready" ? { ...s, sessionLost: true } : s));
        },
        mfaRequired: () => {
          blockedRef.current = true;
          setState({ kind: "mfa" });
        },
        offline: registerBackgroundSync,
      });
      engineRef.current = engine;
      engine.start();
    } else if (!sessionLost && blockedRef.current) {
      blockedRef.current = false;
      engine.restart();
    }
    setState({ kind: "ready", user, db, engine, sessionLost });
  }, []);

  const refresh = useCallback(async () => {
    try {
      const me = await fetchMe();
      const user = { id: me.user.id, name: me.user.name };
      await setCurrentUser(user);
      await open(user, false);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const stored = await currentUser();
      if (err.code === "mfa_required") setState({ kind: "mfa" });
      else if (err.status === 401)
        setState(stored ? (s) => (s.kind === "ready" ? { ...s, sessionLost: true } : { kind: "signed_out" }) : { kind: "signed_out" });
      else if (stored) await open(stored, false);
      else setState({ kind: "signed_out" });
    }
  }, [open]);

  useEffect(() => {
    void (async () => {
      const stored = await currentUser();
      if (stored) await open(stored, false);
      await refresh();
    })();
  }, [open, refresh]);

  const signOutLocally = useCallback(async () => {
    engineRef.current?.stop();
    engineRef.current = undefined;
    const stored = await currentUser();
    if (stored) await (await preloadSignedIn())[1].deleteUserDb(stored.id);
    await setCurrentUser(undefined);
    localStorage.removeItem("lastLocation");
    setState({ kind: "signed_out" });
  }, []);

  const value = useMemo(() => ({ state, refresh, signOutLocally }), [state, refresh, signOutLocally]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const v = useContext(SessionContext);
  if (!v) throw new Error("useSession outside SessionProvider");
  return v;
}

/** The signed-in user's database and engine (screens behind the session gate). */
export function useReady(): Extract<SessionState, { kind: "ready" }> {
  const { state } = useSession();
  if (state.kind !== "ready") throw new Error("useReady before sign-in");
  return state;
}
