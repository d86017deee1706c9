/**
 * Passkeys (spec "Ways to sign in"): our better-auth plugin on @simplewebauthn/server, under
 * /api/v1/auth/passkey/*. The relying party is the host of SVC_PUBLIC_URL and the expected origin
 * is that URL's origin, from configuration only (never a request header). A passkey that verified
 * the person (PIN, biometric: the UV flag) proves two factors: its session is proven at once, and a
 * pending session of the same user is proven in place. Without UV it is one factor.
 */
import { randomBytes } from "node:crypto";
import type { GenericEndpointContext } from "@better-auth/core";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint, getSessionFromCtx, sessionMiddleware } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { passkeys } from "../db/schema/index.js";
import { isSyntheticEmail } from "../mail/mailer.js";
import { stampReauthenticated } from "./reauth-stamp.js";
import { markFactorProven } from "./second-factor.js";

/** @simplewebauthn/server is loaded on the first passkey ceremony: it adds ~18 MB to every idle process otherwise. */
let webauthnModule: Promise<typeof import("@simplewebauthn/server")> | null = null;
const webauthn = () => (webauthnModule ??= import("@simplewebauthn/server"));

const CHALLENGE_COOKIE = "passkey_challenge";
const CHALLENGE_SECONDS = 300;

// The library's endpoint context (its type lives in @better-auth/core, better-auth's own core).
type Ctx = GenericEndpointContext;

const credentialJson = z
  .object({ id: z.string().min(1).max(1024), rawId: z.string().min(1).max(1024), type: z.literal("public-key"), response: z.object({}).loose() })
  .loose();

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

/** One pending ceremony per browser: the challenge is stored server-side, its id in a signed cookie. */
async function saveChallenge(ctx: Ctx, purpose: "register" | "authenticate", challenge: string, userId: string | null) {
  const id = randomBytes(18).toString("base64url");
  await ctx.context.internalAdapter.createVerificationValue({
    identifier: `passkey-${purpose}:${id}`,
    value: JSON.stringify({ challenge, userId }),
    expiresAt: new Date(Date.now() + CHALLENGE_SECONDS * 1000),
  });
  const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE, { maxAge: CHALLENGE_SECONDS });
  await ctx.setSignedCookie(cookie.name, `${purpose}:${id}`, ctx.context.secret, cookie.attributes);
}

/** Spends the ceremony's challenge (single use); null when missing, expired or for another purpose. */
async function takeChallenge(ctx: Ctx, purpose: "register" | "authenticate"): Promise<{ challenge: string; userId: string | null } | null> {
  const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE, { maxAge: CHALLENGE_SECONDS });
  const value = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  ctx.setCookie(cookie.name, "", { ...cookie.attributes, maxAge: 0 });
  if (!value || !value.startsWith(`${purpose}:`)) return null;
  const row = await ctx.context.internalAdapter.consumeVerificationValue(`passkey-${value}`);
  if (!row || new Date(row.expiresAt).getTime() < Date.now()) return null;
  return JSON.parse(row.value) as { challenge: string; userId: string | null };
}

const refused = (message: string) => APIError.from("UNAUTHORIZED", { message, code: "PASSKEY_NOT_VERIFIED" });

export function passkeyPlugin(db: Db, config: Config) {
  const rpID = config.publicUrl.hostname;
  const expectedOrigin = config.publicUrl.origin;

  return {
    id: "svc-passkey",
    endpoints: {
      passkeyRegisterOptions: createAuthEndpoint("/passkey/register/options", { method: "POST", use: [sessionMiddleware] }, async (ctx) => {
        const { user } = ctx.context.session;
        const existing = await db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, user.id));
        const options = await (
          await webauthn()
        ).generateRegistrationOptions({
          rpName: "Inventory",
          rpID,
          // What the authenticator shows; a managed account's synthetic address never is.
          userName: isSyntheticEmail(user.email) ? ((user as { username?: string | null }).username ?? user.name) : user.email,
          userDisplayName: user.name,
          userID: new TextEncoder().encode(user.id),
          attestationType: "none",
          excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports?.split(",") ?? [] })),
          authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
        });
        await saveChallenge(ctx, "register", options.challenge, user.id);
        return ctx.json(options);
      }),

      passkeyRegisterVerify: createAuthEndpoint(
        "/passkey/register/verify",
        { method: "POST", use: [sessionMiddleware], body: z.object({ response: credentialJson, name: z.string().trim().min(1).max(80).optional() }) },
        async (ctx) => {
          const { user } = ctx.context.session;
          const pending = await takeChallenge(ctx, "register");
          if (!pending || pending.userId !== user.id) throw refused("Start the passkey registration again.");
          const result = await (
            await webauthn()
          )
            .verifyRegistrationResponse({
              response: ctx.body.response as unknown as RegistrationResponseJSON,
              expectedChallenge: pending.challenge,
              expectedOrigin,
              expectedRPID: rpID,
              requireUserVerification: false,
            })
            .catch(() => null);
          if (!result?.verified) throw refused("The passkey could not be verified.");
          const info = result.registrationInfo;
          const [saved] = await db
            .insert(passkeys)
            .values({
              userId: user.id,
              credentialId: info.credential.id,
              publicKey: b64url(info.credential.publicKey),
              counter: info.credential.counter,
              transports: info.credential.transports?.join(",") ?? null,
              deviceType: info.credentialDeviceType,
              backedUp: info.credentialBackedUp,
              aaguid: info.aaguid,
              name: ctx.body.name ?? null,
            })
            .onConflictDoNothing()
            .returning({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt });
          if (!saved) throw APIError.from("CONFLICT", { message: "This passkey is already registered.", code: "PASSKEY_EXISTS" });
          return ctx.json({ id: saved.id, name: saved.name, createdAt: saved.createdAt.toISOString() });
        },
      ),

      passkeyAuthenticateOptions: createAuthEndpoint("/passkey/authenticate/options", { method: "POST" }, async (ctx) => {
        // A signed-in (pending) session steps up with one of its own passkeys; otherwise any
        // discoverable passkey of this site may answer.
        const session = await getSessionFromCtx(ctx);
        const own = session
          ? await db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, session.user.id))
          : [];
        const options = await (
          await webauthn()
        ).generateAuthenticationOptions({
          rpID,
          userVerification: "preferred",
          allowCredentials: own.map((c) => ({ id: c.id, transports: c.transports?.split(",") ?? [] })),
        });
        await saveChallenge(ctx, "authenticate", options.challenge, session?.user.id ?? null);
        return ctx.json(options);
      }),

      passkeyAuthenticateVerify: createAuthEndpoint(
        "/passkey/authenticate/verify",
        { method: "POST", body: z.object({ response: credentialJson }) },
        async (ctx) => {
          const response = ctx.body.response as unknown as AuthenticationResponseJSON;
          const pending = await takeChallenge(ctx, "authenticate");
          if (!pending) throw refused("Start the passkey sign-in again.");
          const [key] = await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id));
          if (!key) throw refused("This passkey is not registered here.");
          const result = await (
            await webauthn()
          )
            .verifyAuthenticationResponse({
              response,
              expectedChallenge: pending.challenge,
              expectedOrigin,
              expectedRPID: rpID,
              credential: {
                id: key.credentialId,
                publicKey: Buffer.from(key.publicKey, "base64url"),
                counter: key.counter,
                transports: key.transports?.split(",") ?? [],
              },
              requireUserVerification: false,
            })
            .catch(() => null);
          if (!result?.verified) throw refused("The passkey could not be verified.");
          const { newCounter, userVerified } = result.authenticationInfo;
          const now = new Date();
          await db.update(passkeys).set({ counter: newCounter, lastUsedAt: now }).where(eq(passkeys.id, key.id));
          const user = await ctx.context.internalAdapter.findUserById(key.userId);
          if (!user) throw refused("This passkey is not registered here.");

          const current = await getSessionFromCtx(ctx);
          if (current && current.user.id === user.id && pending.userId === user.id) {
            // Step-up of this user's own session: only a verified person proves the second factor.
            if (!userVerified) {
              throw APIError.from("FORBIDDEN", {
                message: "This passkey did not verify you (no PIN or biometric); use your authenticator code.",
                code: "USER_VERIFICATION_REQUIRED",
              });
            }
            await markFactorProven(db, { sessionId: current.session.id }, now);
            // The person proved themselves again on this session: as good as typing the password
            // (the recovery kit and an email change ask for that; a passkey-only account has none).
            await stampReauthenticated(db, current.session.id, now);
            return ctx.json({ user: { id: user.id, name: user.name }, userVerified });
          }
          const session = await ctx.context.internalAdapter.createSession(user.id);
          if (userVerified) {
            await markFactorProven(db, { sessionId: session.id }, now);
            (session as { mfaProvenAt?: Date }).mfaProvenAt = now;
          }
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ user: { id: user.id, name: user.name }, userVerified });
        },
      ),

      passkeyList: createAuthEndpoint("/passkey/list", { method: "GET", use: [sessionMiddleware] }, async (ctx) => {
        const found = await db
          .select({
            id: passkeys.id,
            name: passkeys.name,
            deviceType: passkeys.deviceType,
            backedUp: passkeys.backedUp,
            createdAt: passkeys.createdAt,
            lastUsedAt: passkeys.lastUsedAt,
          })
          .from(passkeys)
          .where(eq(passkeys.userId, ctx.context.session.user.id))
          .orderBy(desc(passkeys.createdAt));
        return ctx.json({
          items: found.map((p) => ({ ...p, createdAt: p.createdAt.toISOString(), lastUsedAt: p.lastUsedAt?.toISOString() ?? null })),
        });
      }),

      // Names tell a person's passkeys apart on the Security screen ("Work laptop", "Phone").
      passkeyUpdate: createAuthEndpoint(
        "/passkey/update",
        { method: "POST", use: [sessionMiddleware], body: z.object({ id: z.uuid(), name: z.string().trim().min(1).max(80) }) },
        async (ctx) => {
          const [renamed] = await db
            .update(passkeys)
            .set({ name: ctx.body.name })
            .where(and(eq(passkeys.id, ctx.body.id), eq(passkeys.userId, ctx.context.session.user.id)))
            .returning({ id: passkeys.id, name: passkeys.name });
          if (!renamed) throw APIError.from("NOT_FOUND", { message: "No such passkey.", code: "PASSKEY_NOT_FOUND" });
          return ctx.json(renamed);
        },
      ),

      passkeyDelete: createAuthEndpoint("/passkey/delete", { method: "POST", use: [sessionMiddleware], body: z.object({ id: z.uuid() }) }, async (ctx) => {
        const gone = await db
          .delete(passkeys)
          .where(and(eq(passkeys.id, ctx.body.id), eq(passkeys.userId, ctx.context.session.user.id)))
          .returning({ id: passkeys.id });
        if (!gone.length) throw APIError.from("NOT_FOUND", { message: "No such passkey.", code: "PASSKEY_NOT_FOUND" });
        return ctx.json({ status: true });
      }),
    },
  } satisfies BetterAuthPlugin;
}
