/**
 * The one way a screen that needs the server says so: while the device is offline, or the server
 * cannot be reached, its content gives way to "needs a connection"; when the connection is back
 * (the browser says online, or a probe of /health answers) the content mounts again and loads
 * afresh by itself. Content reports a request that could not reach the server through
 * useOnlineLoad (or `lost()`), so "Failed to fetch" is never what a person reads.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { backoffDelay } from "../../sync/backoff.js";
import { ApiError, request } from "../../sync/api.js";
import { useOnline } from "../data.js";
import { useI18n } from "../i18n/i18n.js";
import { errorText } from "../screens/SignIn.js";

/** Probes while the server is out of reach: 2 s at first, at most 30 s apart. */
const PROBE = { baseMs: 2_000, maxMs: 30_000 };

const Lost = createContext<(() => void) | null>(null);

export function OnlineOnly({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const online = useOnline();
  const [unreachable, setUnreachable] = useState(false);
  // Each return mounts the content anew, so every load of it runs again.
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
  if (!online || unreachable)
    return (
      <p className="notice info" role="status" data-needs-connection="">
        {t("connection.needed")}
      </p>
    );
  return (
    <Lost.Provider key={round} value={() => setUnreachable(true)}>
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
 * failure is the text answered as `error`, for a Notice. `reload` runs it again (after a change).
 */
export function useOnlineLoad(
  load: () => Promise<unknown>,
  deps: readonly unknown[],
): { error: string | null; reload: () => void; fail: (err: unknown) => void } {
  const lost = useConnectionLost();
  const [error, setError] = useState<string | null>(null);
  const fail = (err: unknown) => (err instanceof ApiError && err.offline ? lost() : setError(errorText(err)));
  const run = () => {
    load().then(() => setError(null), fail);
  };
  useEffect(run, deps);
  return { error, reload: run, fail };
}
