/**
 * A local OpenID provider stand-in for tests: a tiny Express app serving discovery, authorize,
 * token (with PKCE S256), userinfo and a JWKS, signing RS256 ID tokens with jose. Whoever is set
 * with `signInAs` is signed in at the provider; /authorize answers at once with a code.
 */
import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export interface ProviderUser {
  sub: string;
  email?: string;
  name?: string;
  emailVerified?: boolean;
}

interface Grant {
  user: ProviderUser;
  clientId: string;
  redirectUri: string;
  challenge: string | undefined;
  nonce: string | undefined;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  signInAs(user: ProviderUser): void;
  /** Every /authorize request's query, newest last. */
  authorizeRequests: URLSearchParams[];
  tokenRequests: number;
  close(): Promise<void>;
}

export async function startOidcProvider(opts: { clientId?: string; clientSecret?: string } = {}): Promise<TestOidcProvider> {
  const clientId = opts.clientId ?? "inventory-test-client";
  const clientSecret = opts.clientSecret ?? "inventory-test-secret";
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, ProviderUser>();
  let current: ProviderUser | null = null;
  const authorizeRequests: URLSearchParams[] = [];
  let issuer = "";
  const state = { tokenRequests: 0 };

  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.get("/.well-known/openid-configuration", (_req, res) => {
    res.json({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/userinfo`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    });
  });
  app.get("/jwks", (_req, res) => {
    res.json({ keys: [jwk] });
  });
  app.get("/authorize", (req, res) => {
    const q = new URLSearchParams(req.url.split("?")[1] ?? "");
    authorizeRequests.push(q);
    const redirectUri = q.get("redirect_uri") ?? "";
    if (q.get("client_id") !== clientId || !redirectUri || !current) {
      res.status(400).send("bad authorize request");
      return;
    }
    const code = randomBytes(16).toString("base64url");
    codes.set(code, { user: current, clientId, redirectUri, challenge: q.get("code_challenge") ?? undefined, nonce: q.get("nonce") ?? undefined });
    const to = new URL(redirectUri);
    to.searchParams.set("code", code);
    to.searchParams.set("state", q.get("state") ?? "");
    to.searchParams.set("iss", issuer);
    res.redirect(302, to.toString());
  });
  app.post("/token", async (req, res) => {
    state.tokenRequests++;
    const body = req.body as Record<string, string>;
    const basic = req.headers.authorization?.startsWith("Basic ")
      ? Buffer.from(req.headers.authorization.slice(6), "base64").toString().split(":").map(decodeURIComponent)
      : null;
    const id = basic?.[0] ?? body.client_id;
    const secret = basic?.[1] ?? body.client_secret;
    const grant = codes.get(body.code ?? "");
    codes.delete(body.code ?? "");
    const verifier = body.code_verifier ?? "";
    const challengeOk = grant?.challenge === createHash("sha256").update(verifier).digest("base64url");
    if (!grant || id !== clientId || secret !== clientSecret || body.redirect_uri !== grant.redirectUri || !challengeOk) {
      res.status(400).json({ error: "invalid_grant" });
      return;
    }
    const accessToken = randomBytes(24).toString("base64url");
    tokens.set(accessToken, grant.user);
    const idToken = await new SignJWT({
      ...(grant.user.email ? { email: grant.user.email, email_verified: grant.user.emailVerified ?? true } : {}),
      ...(grant.user.name ? { name: grant.user.name } : {}),
      ...(grant.nonce ? { nonce: grant.nonce } : {}),
    })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .setIssuer(issuer)
      .setAudience(clientId)
      .setSubject(grant.user.sub)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    res.json({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 300,
      id_token: idToken,
      refresh_token: "provider-refresh-token",
      scope: "openid email profile",
    });
  });
  app.get("/userinfo", (req, res) => {
    const user = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
    if (!user) {
      res.status(401).json({ error: "invalid_token" });
      return;
    }
    res.json({
      sub: user.sub,
      ...(user.email ? { email: user.email, email_verified: user.emailVerified ?? true } : {}),
      ...(user.name ? { name: user.name } : {}),
    });
  });

  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get issuer() {
      return issuer;
    },
    clientId,
    clientSecret,
    signInAs(user) {
      current = user;
    },
    authorizeRequests,
    get tokenRequests() {
      return state.tokenRequests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
