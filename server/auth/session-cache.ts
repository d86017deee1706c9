/**
 * A short-lived, in-process memory of resolved sessions, so a signed-in request does not cost two
 * database round trips (session row, user row) plus the cookie's HMAC check every time. The
 * benchmarks found those lookups to be most of a small read's cost and of a live long-poll's
 * re-authentication (docs/develop/performance.md).
 *
 * When it may be stale, and why that is acceptable:
 * - Anything that changes sessions or users through this process (sign-out, revocation, second
 *   factor proven, password reset, managed-account reset, email change: every unsafe request outside
 *   the data routes, see `changesSessions`) empties it before its answer is written, and nothing
 *   read while such a request is in flight is remembered. So a user who signs a device out, here,
 *   sees it signed out on the very next request.
 * - A change made elsewhere (another server process on the same PostgreSQL, or SQL by hand) is
 *   seen within `ttlMs` (SVC_SESSION_CACHE_MS, 5 s by default; 0 switches the cache off).
 * - Expiry is checked against the remembered `expiresAt` on every hit.
 * A sliding refresh (a Set-Cookie from the library) is never remembered: that answer is not cached.
 */
import type { Request, RequestHandler } from "express";

export interface ResolvedSession {
  user: { id: string; name: string; twoFactorEnabled?: boolean | null } & Record<string, unknown>;
  session: { id: string; expiresAt: Date | string; lastSeenAt?: Date | null } & Record<string, unknown>;
}

interface Entry {
  at: number;
  value: ResolvedSession | null;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Unsafe requests on these paths change inventory data only, never a session or a user, so they
 * leave the cache alone (they are the hot write paths: sync pushes, thing edits, uploads).
 * Everything else, including routes added later, empties it: deny by default.
 */
const DATA_ONLY = [
  /^\/api\/v1\/sync\/push$/,
  /^\/api\/v1\/things(\/|$)/,
  /^\/api\/v1\/places(\/|$)/,
  /^\/api\/v1\/files(\/|$)/,
  /^\/api\/v1\/inbox(\/|$)/,
  /^\/api\/v1\/history(\/|$)/,
  /^\/api\/v1\/locations\/[^/]+\/(things|places)$/,
  // MCP tools write inventory data only, through the same write path.
  /^\/mcp$/,
];

export function changesSessions(req: Pick<Request, "method" | "path">): boolean {
  return !SAFE_METHODS.has(req.method) && !DATA_ONLY.some((re) => re.test(req.path));
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every clear; a lookup that started before a clear is not remembered. */
  private generation = 0;
  /** Unsafe requests that may change sessions and have not answered yet. */
  private inFlight = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The remembered answer for this cookie header: a session, `null` (no session), or undefined (ask). */
  get(key: string, now = Date.now()): ResolvedSession | null | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (now - e.at >= this.ttlMs || (e.value && new Date(e.value.session.expiresAt).getTime() <= now)) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** A token to pass to `set`, taken before the lookup starts. */
  ticket(): number {
    return this.generation;
  }

  set(key: string, value: ResolvedSession | null, ticket: number, now = Date.now()): void {
    if (!this.enabled || ticket !== this.generation || this.inFlight > 0) return;
    if (this.entries.size >= this.maxEntries) {
      // Oldest first: Map keeps insertion order.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { at: now, value });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /**
   * Middleware: around every request that may change sessions, forget everything when it starts
   * and again just before its answer's headers go out (after its transaction committed), and
   * remember nothing while it runs.
   */
  guard(): RequestHandler {
    return (req, res, next) => {
      if (!changesSessions(req)) return next();
      this.inFlight++;
      this.clear();
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        this.inFlight--;
        this.clear();
      };
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
      res.writeHead = ((...args: unknown[]) => {
        finish();
        return writeHead(...args);
      }) as typeof res.writeHead;
      res.once("close", finish);
      next();
    };
  }
}
