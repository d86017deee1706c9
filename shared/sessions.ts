import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";

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

export const sessionListSchema = z.object({ items: z.array(sessionItemSchema) }).meta({ id: "SessionList" });
export type SessionList = z.infer<typeof sessionListSchema>;

export const okSchema = z.object({ ok: z.literal(true) }).meta({ id: "Ok" });
