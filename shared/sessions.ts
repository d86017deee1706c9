import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";
import { pageOf } from "./paging.js";

/** One signed-in device (GET /api/v1/me/sessions). Never carries the session token. */
export const sessionItemSchema = z
  .object({
    id: uuidSchema,
    current: z.boolean(),
    createdAt: timestampSchema,
    lastSeenAt: timestampSchema,
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
  })
  .meta({ id: "SessionItem" });
export type SessionItem = z.infer<typeof sessionItemSchema>;

/** GET /api/v1/me/sessions: a page of signed-in devices, newest first (query: shared/paging.ts pageQuerySchema). */
export const sessionListSchema = pageOf(sessionItemSchema).meta({ id: "SessionList" });
export type SessionList = z.infer<typeof sessionListSchema>;

export const okSchema = z.object({ ok: z.literal(true) }).meta({ id: "Ok" });

/** DELETE /api/v1/me/sessions: how many other devices were signed out. */
export const signedOutOthersSchema = z.object({ ok: z.literal(true), signedOut: z.number().int().min(0) }).meta({ id: "SignedOutOthers" });
