/**
 * RFC 9068 JWT access tokens for `<public URL>/mcp`, valid one hour. The authorization server is
 * also the only resource server, so a symmetric key derived from the server secret is enough: no
 * key to store, rotate or publish, and changing SVC_SECRET ends every access token.
 */
import { hkdfSync, randomUUID } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

export const ACCESS_TOKEN_SECONDS = 3600;

export interface AccessClaims {
  sub: string;
  clientId: string;
  scope: string;
  grantId: string;
}

export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(
    serverSecret: string,
    readonly issuer: string,
    readonly audience: string,
  ) {
    this.key = new Uint8Array(hkdfSync("sha256", serverSecret, "", "svc/oauth-access-token/v1", 32));
  }

  issue(claims: AccessClaims, now = new Date()): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ client_id: claims.clientId, scope: claims.scope, gid: claims.grantId })
      .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(claims.sub)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_SECONDS)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired token for our resource; throws otherwise. */
  async verify(token: string): Promise<AccessClaims & { exp: number }> {
    const { payload } = await jwtVerify(token, this.key, { issuer: this.issuer, audience: this.audience, algorithms: ["HS256"], typ: "at+jwt" });
    const { sub, client_id, scope, gid, exp } = payload as Record<string, unknown>;
    if (typeof sub !== "string" || typeof client_id !== "string" || typeof scope !== "string" || typeof gid !== "string" || typeof exp !== "number")
      throw new Error("access token claims missing");
    return { sub, clientId: client_id, scope, grantId: gid, exp };
  }
}
