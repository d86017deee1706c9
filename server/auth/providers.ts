/**
 * OIDC and social sign-in (spec "Ways to sign in"): offered only when the provider is configured
 * and its discovery document could be fetched at start-up. The account key is the `sub` claim;
 * linking is explicit (POST /api/v1/auth/link-social from a signed-in session); no account is
 * ever created by these sign-ins; the provider's tokens are never stored (auth.ts drops them).
 */
import { genericOAuth } from "better-auth/plugins";
import type { Logger } from "pino";
import type { Config, OAuthProviderConfig } from "../config.js";

const DISCOVERY_TIMEOUT_MS = 5000;

export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
}

/** Fetches the provider's discovery document; the provider is usable when it names itself and its endpoints. */
async function discover(provider: OAuthProviderConfig): Promise<void> {
  const res = await fetch(discoveryUrl(provider.issuer), { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS), redirect: "error" });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const doc = (await res.json()) as Record<string, unknown>;
  const same = (a: unknown, b: string) => typeof a === "string" && a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
  if (!same(doc.issuer, provider.issuer)) throw new Error(`issuer is ${String(doc.issuer)}, not ${provider.issuer}`);
  for (const key of ["authorization_endpoint", "token_endpoint", "jwks_uri"]) {
    if (typeof doc[key] !== "string") throw new Error(`no ${key}`);
  }
}

/** The configuration with `signInProviders` set to the providers whose discovery worked now. */
export async function withSignInProviders(config: Config, logger: Logger): Promise<Config> {
  const usable: OAuthProviderConfig[] = [];
  for (const provider of config.oauthProviders) {
    try {
      await discover(provider);
      usable.push(provider);
    } catch (err) {
      logger.error({ provider: provider.id, issuer: provider.issuer, reason: (err as Error).message }, "sign-in provider discovery failed; it is not offered");
    }
  }
  return { ...config, signInProviders: usable };
}

export function oauthPlugin(config: Config) {
  return genericOAuth({
    config: config.signInProviders.map((p) => ({
      providerId: p.id,
      discoveryUrl: discoveryUrl(p.issuer),
      clientId: p.clientId,
      ...(p.clientSecret ? { clientSecret: p.clientSecret } : {}),
      scopes: ["openid", "email", "profile"],
      pkce: true,
      requireIdTokenVerification: true,
      ...(p.prompt ? { prompt: p.prompt } : {}),
      disableSignUp: true,
      disableImplicitSignUp: true,
    })),
  });
}
