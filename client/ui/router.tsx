/**
 * A small history-API router: the server answers every client route with the app shell
 * (server/http/client-app.ts) and so does the service worker offline, so deep links and reloads
 * land on the right screen. The paths and their matching are the route table's (routes.ts).
 */
import { useEffect, useState, type ReactNode } from "react";

export interface Location {
  path: string;
  query: URLSearchParams;
  hash: string;
}

const read = (): Location => ({ path: window.location.pathname, query: new URLSearchParams(window.location.search), hash: window.location.hash });

const listeners = new Set<() => void>();

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  for (const l of listeners) l();
  window.scrollTo(0, 0);
}

export function useLocation(): Location {
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const update = () => setLoc(read());
    listeners.add(update);
    window.addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return loc;
}

/** A link that navigates without reloading (and still works as a normal link). */
export function Link(props: { to: string; className?: string; children: ReactNode; "aria-current"?: "page" | undefined; "aria-label"?: string }) {
  const { to, children, ...rest } = props;
  return (
    <a
      href={to}
      {...rest}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
