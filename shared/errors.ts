import { z } from "zod";

/**
 * Every error code the API answers with. One body shape for all of them:
 * `{"error": {"code", "message", "details"?}}`.
 */
export const ERROR_CODES = [
  "validation_failed",
  "unauthenticated",
  "forbidden",
  "mfa_required",
  "reauth_required",
  "not_found",
  "version_conflict",
  "conflict",
  "gone",
  "undo_expired",
  "signup_closed",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "client_too_old",
  "internal",
  "unavailable",
] as const;
export const errorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const errorBodySchema = z
  .object({
    error: z.object({
      code: errorCodeSchema,
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: "Error" });
export type ErrorBody = z.infer<typeof errorBodySchema>;
