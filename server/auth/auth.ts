/**
 * The authentication library: better-auth core, mounted at /api/v1/auth. What the spec switches off
 * is listed in DISABLED_PATHS; what it adds (our sign-up, token stripping) is ours. Each option
 * says beside it why it is set.
 */
import { betterAuth, type BetterAuthPlugin } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor, username } from "better-auth/plugins";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { authAccounts, authRateLimits, authSessions, authTwoFactors, authVerifications, users } from "../db/schema/index.js";
import { createMailer, isSyntheticEmail } from "../mail/mailer.js";
import { mailLinks, RESET_LINK_SECONDS } from "./mail-links.js";
import { passkeyPlugin } from "./passkeys.js";
import { oauthPlugin } from "./providers.js";
import { secondFactorPlugin } from "./second-factor.js";
import { totpReplayPlugin } from "./totp-replay.js";

export const AUTH_BASE_PATH = "/api/v1/auth";

/**
 * Library routes the spec switches off (Sign-up rule 4): its own sign-up (ours wraps it with the
 * open/invite rule and the uniform answer), session listing and revocation (ours at /me/sessions),
 * email change and account deletion (need re-authentication; ours), token endpoints.
 */
export const DISABLED_PATHS = [
  "/sign-up/email",
  "/list-sessions",
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
  "/change-email",
  "/delete-user",
  "/get-access-token",
  "/refresh-token",
  "/account-info",
  "/list-accounts",
  "/unlink-account",
  "/update-session",
  // Would tell anyone which usernames exist.
  "/is-username-available",
  // A password oracle for whoever holds a session; our re-authentication counts failures.
  "/verify-password",
  // Email one-time codes are not a second factor (spec "Second factors" 1).
  "/two-factor/send-otp",
  "/two-factor/verify-otp",
  // Email verification is not part of the service; a mailed-link GET must never change state.
  "/send-verification-email",
  "/verify-email",
  // The library redeems magic links by GET, which mail scanners follow; ours is a POST.
  "/magic-link/verify",
];

/**
 * TOTP with backup codes. The plugin's sign-in hook (a cookie flow for password sign-ins only) is
 * dropped: every sign-in makes a session that stays pending until a factor is proven in it
 * (server/auth/second-factor.ts). Its "trust this device" cookie goes with it.
 */
function totpPlugin(appName: string) {
  const plugin = twoFactor({ issuer: appName, backupCodeOptions: { amount: 10, storeBackupCodes: "encrypted" } });
  return { ...plugin, hooks: { after: [] } };
}

/** A managed account's synthetic address, bare or URL-encoded (as in a TOTP URI's label). */
const SYNTHETIC_ADDRESS = /[A-Za-z0-9._-]+(?:@|%40)managed\.invalid/g;

/**
 * Removes every `token` key from a JSON value, so page scripts never see a session token, and
 * hides managed accounts' synthetic addresses (spec "Managed accounts": never shown).
 */
export function stripTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripTokens);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "token") continue;
      out[k] = k === "email" && typeof v === "string" && isSyntheticEmail(v) ? null : stripTokens(v);
    }
    return out;
  }
  if (typeof value === "string" && value.includes("managed.invalid")) return value.replace(SYNTHETIC_ADDRESS, "managed-account");
  return value;
}

/** Spec "Sessions and cookies" rule 3, on every JSON body the library answers with. */
const stripTokenPlugin = {
  id: "strip-token",
  async onResponse(response: Response) {
    if (!response.headers.get("content-type")?.includes("application/json")) return;
    const text = await response.clone().text();
    if (!text.includes('"token"') && !text.includes("managed.invalid")) return;
    const body = JSON.stringify(stripTokens(JSON.parse(text)));
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return { response: new Response(body, { status: response.status, statusText: response.statusText, headers }) };
  },
} satisfies BetterAuthPlugin;

const NO_PROVIDER_TOKENS = { accessToken: null, refreshToken: null, idToken: null, accessTokenExpiresAt: null, refreshTokenExpiresAt: null };

/**
 * What sign-in does for the domains, handed in by the composition root (server/services.ts), since
 * auth is glue under them: sign-up step 2 makes the new user's own account and personal location
 * (server/modules/locations/bootstrap.ts), right after the user row is committed.
 */
export interface AuthHooks {
  userCreated: (user: { id: string; name: string }) => Promise<void>;
}

export function createAuth(db: Db, config: Config, logger: Logger, hooks: AuthHooks) {
  const https = config.secure;
  const links = mailLinks(db, config, createMailer(config, logger), logger);
  return betterAuth({
    appName: "Inventory",
    basePath: AUTH_BASE_PATH,
    baseURL: config.publicUrl.origin,
    secret: config.secret,
    trustedOrigins: [config.publicUrl.origin],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: users,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
        twoFactor: authTwoFactors,
        rateLimit: authRateLimits,
      },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 256,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
      sendResetPassword: links.sendResetPassword,
      onPasswordReset: links.onPasswordReset,
    },
    // Spec "Sessions and cookies" rule 1: 30 days sliding (refreshed once a day) over https,
    // 12 hours never renewed over plain http. No cookie cache, so a revocation takes effect at once.
    session: {
      ...(https ? { expiresIn: 30 * 86400, updateAge: 86400 } : { expiresIn: 12 * 3600, disableSessionRefresh: true }),
      additionalFields: {
        mfaProvenAt: { type: "date", required: false, input: false },
        lastSeenAt: { type: "date", required: false, input: false },
        reauthenticatedAt: { type: "date", required: false, input: false },
      },
    },
    user: { additionalFields: {} },
    advanced: {
      database: { generateId: "uuid" },
      // req.ip (socket, walked through SVC_TRUSTED_PROXIES only) is copied into this header by the edge.
      ipAddress: { ipAddressHeaders: ["x-svc-client-ip"] },
      useSecureCookies: https,
      cookiePrefix: "svc",
    },
    disabledPaths: DISABLED_PATHS,
    // Sign-in limits are the edge's job (issue: sign-in and sessions); the library's own limiter
    // keys on headers we do not trust.
    rateLimit: { enabled: false },
    plugins: [
      username(),
      totpPlugin("Inventory"),
      totpReplayPlugin(db),
      links.magicLinkPlugin,
      passkeyPlugin(db, config),
      ...(config.signInProviders.length ? [oauthPlugin(config)] : []),
      secondFactorPlugin(db),
      stripTokenPlugin,
    ],
    // OIDC and social: the account key is `sub`; an identity is linked only on purpose, from a
    // signed-in session (POST /link-social), whatever its email says.
    account: {
      accountLinking: { enabled: true, disableImplicitLinking: true, allowDifferentEmails: true },
      updateAccountOnSignIn: false,
    },
    databaseHooks: {
      // The provider's tokens are dropped (spec "Ways to sign in": social sign-in); we never call it.
      account: {
        create: { before: async (account) => Promise.resolve({ data: { ...account, ...NO_PROVIDER_TOKENS } }) },
        update: { before: async (account) => Promise.resolve({ data: { ...account, ...NO_PROVIDER_TOKENS } }) },
      },
      user: {
        create: {
          // Sign-up step 2, right after the user row is committed.
          after: async (user) => {
            await hooks.userCreated({ id: user.id, name: user.name });
          },
        },
      },
    },
    // The library's own lines go to our logger: it would print to the console whole errors whose
    // messages carry the SQL and its parameters (addresses, token hashes). Only an error among the
    // arguments is kept, under `err`, where our serializer strips it (server/http/log.ts).
    logger: {
      disabled: config.logLevel === "silent",
      level: "warn",
      log: (level, message, ...args: unknown[]) => {
        const err = args.find((a): a is object => a instanceof Error || (typeof a === "object" && a !== null && "stack" in a));
        logger[level]({ ...(err ? { err } : {}), source: "auth-library" }, message);
      },
    },
    // A failure that is not one of the library's own answers (a database error) is thrown to our
    // mount instead of being printed to the console with its SQL and answered as a bare 500: the
    // one error mapper logs it safely and answers 503 when the database is unreachable.
    onAPIError: { throw: true },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
