/**
 * What the authentication library is allowed to receive. The library checks little of what it
 * stores: a display name of any length, an image "URL" of any scheme, a reset token of any
 * characters, and text PostgreSQL cannot keep (NUL) becomes a database error and an empty 500.
 * The mount (server/auth/mount.ts) checks every body and query against these rules, and against
 * the well-formed-text rule of shared/text.ts, before the library sees them; our own routes
 * (sign-up) use the same schemas.
 */
import { z } from "zod";
import { ILL_FORMED_TEXT_MESSAGE, isWellFormedText } from "../../shared/text.js";

/** A person's display name: the rule of our own name fields (trimmed, 1 to 120 characters). */
export const displayNameSchema = z.string().trim().min(1).max(120).refine(isWellFormedText, ILL_FORMED_TEXT_MESSAGE);

export const IMAGE_URL_MAX = 2048;

/** A profile picture: an https URL, or empty/null to remove it (stored as null). No javascript:, data: or http:. */
export const imageUrlSchema = z
  .union([
    z.literal(""),
    z.null(),
    z
      .url({ protocol: /^https$/, error: "must be an https URL" })
      .regex(/^https:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i, "must be an https URL")
      .max(IMAGE_URL_MAX),
  ])
  .transform((v) => v || null);

/** The library makes reset tokens of 24 letters and digits; this bound leaves room for another format, never for arbitrary text. */
export const resetTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "is not a reset token");

/** POST /update-user: the only user fields a person changes through the library. */
export const updateUserBody = z
  .object({
    name: displayNameSchema.optional(),
    image: imageUrlSchema.optional(),
    username: z.string().max(30).optional(),
    displayUsername: displayNameSchema.optional(),
  })
  .strict();

/** POST /reset-password: the token may come in the body or (as the library also allows) the query. */
export const resetPasswordBody = z.object({ newPassword: z.string().min(1).max(256), token: resetTokenSchema.optional() }).strict();
export const resetPasswordQuery = z.object({ token: resetTokenSchema.optional() }).strict();
