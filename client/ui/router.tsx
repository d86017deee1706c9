/**
 * A small history-API router: the server answers every client route with the app shell
 * (server/http/client-app.ts) and so does the service worker offline, so deep links and reloads
 * land on the right screen. Routes are matched in App.tsx.
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

/** Matches `/l/:loc/things/:id` style patterns; returns the named parts or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split("/");
  const s = path.replace(/\/+$/, "").split("/");
  if (p.length !== s.length) return null;
  const out: Record<string, string> = {};
  for (const [i, part] of p.entries()) {
    const seg = s[i] ?? "";
    if (part.startsWith(":")) {
      if (!seg) return null;
      out[part.slice(1)] = decodeURIComponent(seg);
    } else if (part !== seg) return null;
  }
  return out;
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
