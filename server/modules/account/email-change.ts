/**
 * Changing the sign-in email (spec "Second factors" 4, after re-authentication): the new address
 * has to prove it reads its mail. POST /api/v1/me/email sends a one-time link to the NEW address
 * (`/confirm-email#token=`, in the fragment like every mailed link) and a notice to the current
 * one; nothing changes until POST /api/v1/auth/email-change/confirm redeems the link. Only the
 * SHA-256 of a token is stored (in the library's verification table), one pending change per
 * user, valid for an hour; confirming makes the new address the sign-in address, proven.
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { emailChangedSchema } from "../../../shared/reauth.js";
import type { Config } from "../../config.js";
import { isUniqueViolation, type Db } from "../../db/client.js";
import { ConflictError, ValidationError } from "../../errors/classes.js";
import { defineRoute } from "../../http/route.js";
import { isSyntheticEmail, type Mailer } from "../../mail/mailer.js";
import { replacePendingChange, setProvenEmail, takePendingChange, userOf } from "./repository.js";

export const EMAIL_CHANGE_SECONDS = 60 * 60;
const PREFIX = "email-change:";

/** The answer of POST /api/v1/me/email (202): nothing changed yet, a link went to the new address. */
export const emailChangePendingSchema = z
  .object({
    status: z.literal("confirmation_sent"),
    email: z.string().meta({ description: "The new address, which the link was sent to; the sign-in address stays as it is until the link is used" }),
  })
  .meta({ id: "EmailChangePending" });

export const emailChangeConfirmBody = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, "is not a confirmation token") }).strict();

const pendingValue = z.object({ userId: z.uuid(), email: z.string() });

const identifierOf = (token: string) => `${PREFIX}${createHash("sha256").update(token).digest("base64url")}`;
/** The stored value starts with the user id (JSON.stringify keeps key order), so a user's pending change is found by prefix. */
const valueOf = (userId: string, email: string) => JSON.stringify({ userId, email });
const valuePrefix = (userId: string) => `{"userId":"${userId}",%`;

function invalidLink(): ValidationError {
  return new ValidationError("This confirmation link is invalid, already used or expired; ask for a new one.");
}

/** Replaces the user's pending change (if any) with one for `email`, and mails the link and the notice. */
export async function requestEmailChange(
  deps: { db: Db; config: Config; mailer: Mailer },
  user: { id: string; email: string },
  email: string,
  now = new Date(),
): Promise<void> {
  const { db, config, mailer } = deps;
  const token = randomBytes(32).toString("base64url");
  const change = {
    prefix: PREFIX,
    valuePrefix: valuePrefix(user.id),
    identifier: identifierOf(token),
    value: valueOf(user.id, email),
    expiresAt: new Date(now.getTime() + EMAIL_CHANGE_SECONDS * 1000),
  };
  await replacePendingChange(db, change, now);
  const link = `${new URL("/confirm-email", config.publicUrl).href}#token=${token}`;
  // Sent before answering: the person waits for this mail, and a failure to send should show.
  await mailer.send({
    kind: "email-change-confirm",
    to: email,
    subject: "Confirm your new Inventory sign-in address",
    text: [
      "Someone signed in to an Inventory account asked to make this address its sign-in address. To confirm, open:",
      "",
      link,
      "",
      "The link works once, for one hour. If this was not you, ignore this mail: nothing changes.",
    ].join("\n"),
  });
  await mailer.send({
    kind: "email-change-notice",
    to: user.email,
    subject: "Your Inventory sign-in address is about to change",
    text: [
      `Someone signed in to your Inventory account asked to change its sign-in address to ${email}.`,
      "It changes only when the link sent to that address is opened, within one hour.",
      "",
      "If this was not you, change your password now and sign out your other devices.",
    ].join("\n"),
  });
}

/** Redeems a link: the token is spent, and the address it carries becomes the sign-in address. */
export async function confirmEmailChange(db: Db, token: string, now = new Date()): Promise<{ email: string }> {
  return db.transaction(async (tx) => {
    const row = await takePendingChange(tx, identifierOf(token));
    if (!row || row.expiresAt < now) throw invalidLink();
    const pending = pendingValue.safeParse(JSON.parse(row.value));
    if (!pending.success) throw invalidLink();
    const { userId, email } = pending.data;
    const me = await userOf(tx, userId);
    if (!me || isSyntheticEmail(me.email)) throw invalidLink();
    try {
      // The link was opened from the new mailbox: the address is proven.
      await setProvenEmail(tx, userId, email, now);
    } catch (err) {
      // Taken by another account since the request (the link stays unspent, and changes nothing).
      if (isUniqueViolation(err)) throw new ConflictError("This address is now used by another account.");
      throw err;
    }
    return { email };
  });
}

export function emailChangeConfirmRoute(deps: { db: Db }) {
  return defineRoute({
    method: "post",
    path: "/api/v1/auth/email-change/confirm",
    summary: "Confirm a new sign-in address with the token from the link mailed to it (#token=)",
    tag: "auth",
    auth: "none",
    body: emailChangeConfirmBody,
    response: emailChangedSchema,
    async handler({ body }) {
      return confirmEmailChange(deps.db, body.token);
    },
  });
}
