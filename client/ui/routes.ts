/**
 * Every path of the web app, once, with its parameters: the router matches from this table
 * (App.tsx) and every link and navigate builds its href from it (`paths.thing({ locationId, thingId })`),
 * so no path string is written twice (test/unit/client/route-table.test.ts fails on a path literal
 * elsewhere in client/ui or client/features).
 *
 * Our own typed table, not a router library: none is a dependency, and the entry chunk a phone
 * downloads before the first screen must fall to 150 kB gzipped (issue #33), where a full router
 * costs more than this file and router.tsx together. The server (server/http/client-app.ts) and the
 * service worker answer every one of these paths with the app shell.
 */

/** The names in a pattern such as `/l/:locationId/things/:thingId`, each a string. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
export type Params<P extends string> = { [K in ParamNames<P>]: string };

/** A query string's parts; empty values are kept, an empty query adds nothing. */
export type Query = URLSearchParams | Record<string, string>;

/** A path with parameters takes them; a path without takes only an optional query. */
type HrefArgs<P extends string> = [ParamNames<P>] extends [never] ? [query?: Query] : [params: Params<P>, query?: Query];

export interface Route<P extends string> {
  pattern: P;
  /** A page of the way in (sign-in, sign-up, first-run setup, emailed links): the language switch shows there. */
  beforeSignIn: boolean;
  href: (...args: HrefArgs<P>) => string;
  /** The parameters (decoded) when `path` is this route, else null. A trailing slash is ignored. */
  match: (path: string) => Params<P> | null;
}

const segments = (path: string): string[] => {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" ? [""] : trimmed.split("/");
};

function route<P extends string>(pattern: P, opts: { beforeSignIn?: boolean } = {}): Route<P> {
  const parts = segments(pattern);
  return {
    pattern,
    beforeSignIn: opts.beforeSignIn ?? false,
    href: (...args: HrefArgs<P>) => {
      const [params, query] = (parts.some((p) => p.startsWith(":")) ? args : [{}, args[0]]) as [Record<string, string>, Query | undefined];
      const path = parts.map((p) => (p.startsWith(":") ? encodeURIComponent(params[p.slice(1)] ?? "") : p)).join("/") || "/";
      const search = query ? new URLSearchParams(query).toString() : "";
      return search ? `${path}?${search}` : path;
    },
    match: (path) => {
      const got = segments(path);
      if (got.length !== parts.length) return null;
      const out: Record<string, string> = {};
      for (const [i, part] of parts.entries()) {
        const seg = got[i] ?? "";
        if (part.startsWith(":")) {
          if (!seg) return null;
          out[part.slice(1)] = decodeURIComponent(seg);
        } else if (part !== seg) return null;
      }
      return out as Params<P>;
    },
  };
}

export const routes = {
  // Pages whose token or code is their only authority, whoever is (or is not) signed in.
  share: route("/s/:shareId"),
  magicLink: route("/magic", { beforeSignIn: true }),
  resetPassword: route("/reset", { beforeSignIn: true }),
  confirmEmail: route("/confirm-email", { beforeSignIn: true }),
  invite: route("/invite", { beforeSignIn: true }),
  setup: route("/setup", { beforeSignIn: true }),
  // The way in.
  signIn: route("/sign-in", { beforeSignIn: true }),
  signUp: route("/sign-up", { beforeSignIn: true }),
  twoFactor: route("/two-factor", { beforeSignIn: true }),
  // Signed in (or signed out with data kept on this device).
  home: route("/"),
  locations: route("/locations"),
  sync: route("/sync"),
  settings: route("/settings"),
  security: route("/settings/security"),
  devices: route("/settings/devices"),
  tokens: route("/settings/tokens"),
  admin: route("/admin"),
  scan: route("/scan"),
  code: route("/c/:code"),
  // One location's screens; `/l/:locationId` alone is its places.
  location: route("/l/:locationId"),
  places: route("/l/:locationId/places"),
  things: route("/l/:locationId/things"),
  thing: route("/l/:locationId/things/:thingId"),
  moveThing: route("/l/:locationId/things/:thingId/move"),
  boxCheck: route("/l/:locationId/things/:thingId/check"),
  meter: route("/l/:locationId/meters/:meterId"),
  capture: route("/l/:locationId/capture"),
  inbox: route("/l/:locationId/inbox"),
  members: route("/l/:locationId/members"),
  webhooks: route("/l/:locationId/webhooks"),
  locationSettings: route("/l/:locationId/settings"),
  types: route("/l/:locationId/types"),
  labels: route("/l/:locationId/labels"),
  loans: route("/l/:locationId/loans"),
  moves: route("/l/:locationId/moves"),
  move: route("/l/:locationId/moves/:moveId"),
  report: route("/l/:locationId/report"),
  export: route("/l/:locationId/export"),
};

type Routes = typeof routes;

/** Each route's href builder by name: `paths.things({ locationId }, { place })`. */
export const paths = Object.fromEntries(Object.entries(routes).map(([name, r]) => [name, r.href])) as {
  [K in keyof Routes]: Routes[K]["href"];
};

/** Whether `path` is one of the pages of the way in (the language switch shows there). */
export const isBeforeSignIn = (path: string): boolean => Object.values(routes).some((r) => r.beforeSignIn && r.match(path) !== null);
