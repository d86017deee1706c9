/**
 * The `Authorization: Bearer` header, read the same way by the edge (a bearer request is its
 * token's alone, never its cookie's) and by the personal-token gate (server/modules/tokens/gate.ts).
 */
const BEARER_SCHEME = /^bearer\s/i;
const BEARER = /^bearer\s+(\S+)\s*$/i;

/** The bearer credential of a request, if it sent one (any scheme word case); "" when malformed. */
export function bearerOf(authorization: string | undefined): string | null {
  if (!authorization || !BEARER_SCHEME.test(authorization)) return null;
  return BEARER.exec(authorization)?.[1] ?? "";
}
