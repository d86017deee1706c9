/**
 * Who is making a request. The write path, RLS settings and history all take an Actor, whatever the
 * way in (session cookie now; personal tokens and MCP grants reuse the same fields).
 */
export interface Actor {
  type: "user" | "token" | "mcp" | "system";
  userId: string;
  displayName: string;
  sessionId?: string;
  tokenId?: string;
  /** Whether the session proved a second factor; locations requiring two-factor stay hidden otherwise. */
  mfaProven: boolean;
  /** Narrows reachable locations (tokens, grants); null means all the user's memberships. */
  locationScope: readonly string[] | null;
  /** False for read-only actors (read tokens, svc:read grants). */
  canWrite: boolean;
}

export function userActor(user: { id: string; name: string }, opts: { sessionId?: string; mfaProven: boolean }): Actor {
  return {
    type: "user",
    userId: user.id,
    displayName: user.name,
    ...(opts.sessionId ? { sessionId: opts.sessionId } : {}),
    mfaProven: opts.mfaProven,
    locationScope: null,
    canWrite: true,
  };
}
