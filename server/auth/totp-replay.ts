/**
 * An authenticator code works once. The library accepts the code of the current 30-second step
 * and of one step either side, and would accept the same code again for as long as it stays in
 * that window: whoever watched it being typed could sign in with it a minute later. Before the
 * library checks a code (POST /two-factor/verify-totp: proving a sign-in, and the first code that
 * turns two-factor on), this finds the step the code belongs to and claims it for the user in one
 * statement: a step at or before the last one claimed is refused with 401, so a replay (or two
 * tabs sending one code at once) fails like a wrong code and counts as a sign-in failure.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { authTwoFactors } from "../db/schema/index.js";

/** The library's TOTP settings (twoFactor() defaults): 6 digits, 30-second steps, one step of slack either side. */
export const TOTP_PERIOD_MS = 30_000;
const DIGITS = 6;
const WINDOW = 1;

export const TOTP_PATH = "/two-factor/verify-totp";

/** RFC 4226 HOTP, as the library computes it (HMAC-SHA1 over the big-endian step number). */
function hotp(key: Buffer, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** DIGITS).padStart(DIGITS, "0");
}

/** The latest step in the window whose code is `code`, or null; every step is compared, in constant time. */
export function stepOfCode(key: Buffer, code: string, now = Date.now()): number | null {
  const given = Buffer.from(code);
  const current = Math.floor(now / TOTP_PERIOD_MS);
  let found: number | null = null;
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    const expected = Buffer.from(hotp(key, step));
    const same = given.length === expected.length && timingSafeEqual(given, expected);
    if (same) found = step;
  }
  return found;
}

export function totpReplayPlugin(db: Db) {
  return {
    id: "svc-totp-replay",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === TOTP_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const code = (ctx.body as { code?: unknown } | undefined)?.code;
            if (typeof code !== "string") return;
            // Codes are proven in a session (pending or not); without one the library refuses anyway.
            const session = await getSessionFromCtx(ctx);
            if (!session) return;
            const [row] = await db
              .select({ id: authTwoFactors.id, secret: authTwoFactors.secret })
              .from(authTwoFactors)
              .where(eq(authTwoFactors.userId, session.user.id));
            if (!row) return;
            // The library's own secrets are used as UTF-8 bytes. (A `base32:` secret would come from
            // an import, which this service does not offer; its codes would match no step here.)
            const secret = await symmetricDecrypt({ key: ctx.context.secretConfig, data: row.secret });
            const step = stepOfCode(Buffer.from(secret, "utf8"), code);
            // A wrong code: the library refuses it and counts the failure as usual.
            if (step === null) return;
            const claimed = await db
              .update(authTwoFactors)
              .set({ lastTotpStep: step })
              .where(and(eq(authTwoFactors.id, row.id), or(isNull(authTwoFactors.lastTotpStep), lt(authTwoFactors.lastTotpStep, step))))
              .returning({ id: authTwoFactors.id });
            if (!claimed.length) {
              throw new APIError("UNAUTHORIZED", {
                code: "CODE_ALREADY_USED",
                message: "This code was already used. Wait for the next one from your authenticator app.",
              });
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
