/**
 * The one way a screen that needs the server says so: while the device is offline, or the server
 * cannot be reached, its content gives way to "needs a connection"; when the connection is back
 * (the browser says online, or a probe of /health answers) the content mounts again and loads
 * afresh by itself. Content reports a request that could not reach the server through
 * useOnlineLoad (or `lost()`), so "Failed to fetch" is never what a person reads.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { backoffDelay } from "../sync/backoff.js";
import { ApiError, request } from "../sync/api.js";
import { useOnline } from "./data.js";
import { useI18n } from "./i18n/i18n.js";
import { errorText } from "./refusal.js";

/** Probes while the server is out of reach: 2 s at first, at most 30 s apart. */
const PROBE = { baseMs: 2_000, maxMs: 30_000 };

const Lost = createContext<(() => void) | null>(null);

/**
 * Whether the server can be reached now: the browser says online and no request has found the
 * server gone since (`lost()`); then /health is probed, with backoff, until it answers. `round`
 * grows each time the connection comes back, for what should load again then.
 */
export function useConnection(): { connected: boolean; lost: () => void; round: number } {
  const online = useOnline();
  const [unreachable, setUnreachable] = useState(false);
  const [round, setRound] = useState(0);
  const wasOnline = useRef(online);
  useEffect(() => {
    if (online && !wasOnline.current) {
      setUnreachable(false);
      setRound((n) => n + 1);
    }
    wasOnline.current = online;
  }, [online]);
  useEffect(() => {
    if (!online || !unreachable) return;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout>;
    const probe = () => {
      timer = setTimeout(
        () => {
          request("GET", "/health").then(
            () => {
              setUnreachable(false);
              setRound((n) => n + 1);
            },
            () => probe(),
          );
        },
        backoffDelay(attempt++, undefined, PROBE) + PROBE.baseMs,
      );
    };
    probe();
    return () => clearTimeout(timer);
  }, [online, unreachable]);
  return { connected: online && !unreachable, lost: () => setUnreachable(true), round };
}

/** A failure's handling: a request that found no server is `lost()`, anything else an error text. */
export const failure =
  (lost: () => void, setError: (message: string) => void, say: (message: string) => string = (m) => m) =>
  (err: unknown) =>
    err instanceof ApiError && err.offline ? lost() : setError(say(errorText(err)));

export function OnlineOnly({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const { connected, lost, round } = useConnection();
  if (!connected)
    return (
      <p className="notice info" role="status" data-needs-connection="">
        {t("connection.needed")}
      </p>
    );
  // Each return mounts the content anew (a new key), so every load of it runs again.
  return (
    <Lost.Provider key={round} value={lost}>
      {children}
    </Lost.Provider>
  );
}

/** Reports that a request found no server: the nearest OnlineOnly shows "needs a connection". */
export function useConnectionLost(): () => void {
  return useContext(Lost) ?? (() => undefined);
}

/**
 * Runs `load` when the content mounts (and again when `deps` change). A request that found no
 * server hands over to OnlineOnly, which loads again once the connection is back; any other
 * failure is the text answered as `error`, for a Notice. `reload` runs it again (after a change);
 * `fail` is the same handling for the content's own requests (a button's).
 */
export function useOnlineLoad(
  load: () => Promise<unknown>,
  deps: readonly unknown[],
  /** How a failure's message reads (the account screens say "That did not work: …"). */
  say: (message: string) => string = (m) => m,
): { error: string | null; setError: (error: string | null) => void; reload: () => Promise<void>; fail: (err: unknown) => void } {
  const lost = useConnectionLost();
  const [error, setError] = useState<string | null>(null);
  const fail = failure(lost, setError, say);
  const run = () => load().then(() => setError(null), fail);
  useEffect(() => void run(), deps);
  return { error, setError, reload: run, fail };
}
