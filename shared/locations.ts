import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";
import { roleSchema } from "./roles.js";

export const locationSchema = z
  .object({
    id: uuidSchema,
    name: z.string(),
    role: roleSchema,
    isPersonal: z.boolean(),
    requiresTwoFactor: z.boolean(),
    viewersSeeMoney: z.boolean(),
    /** The owner's secret-field policy: the roles that may reveal a secret value (the owner always may). */
    secretRevealRoles: z.array(roleSchema),
    rowVersion: z.number().int(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: "Location" });
export type Location = z.infer<typeof locationSchema>;

const locationName = z.string().trim().min(1).max(120);

export const locationCreateArgs = z.object({
  id: uuidSchema.optional(),
  name: locationName,
});
export type LocationCreateArgs = z.infer<typeof locationCreateArgs>;

/** Roles that may reveal secret values; the owner is always among them (added if left out). */
export const secretRevealRolesSchema = z.array(roleSchema).max(4);

/** Owner-only fields (requiresTwoFactor, secretRevealRoles) are checked by the command, not by this schema. */
const locationPatchShape = z
  .object({ name: locationName, requiresTwoFactor: z.boolean(), viewersSeeMoney: z.boolean(), secretRevealRoles: secretRevealRolesSchema })
  .partial()
  .strict();
export const locationPatchSchema = locationPatchShape.refine((p) => Object.keys(p).length > 0, "patch must change at least one field");
/** REST PATCH; rowVersion is optional for settings (last write wins when absent). */
export const locationPatchBody = locationPatchShape
  .extend({ rowVersion: z.number().int().min(1).optional() })
  .refine((p) => Object.keys(p).some((k) => k !== "rowVersion"), "patch must change at least one field");
export const locationUpdateArgs = z.object({ id: uuidSchema, patch: locationPatchSchema });
export type LocationUpdateArgs = z.infer<typeof locationUpdateArgs>;

export const meSchema = z
  .object({
    user: z.object({
      id: uuidSchema,
      name: z.string(),
      email: z.string().nullable(),
      username: z.string().nullable(),
      twoFactorEnabled: z.boolean(),
    }),
    locations: z.array(locationSchema),
  })
  .meta({ id: "Me" });
export type Me = z.infer<typeof meSchema>;

/** DELETE /locations/:id: `confirm` is the location's name, typed again (owner only). */
export const locationDeleteBody = z.object({ confirm: z.string().max(200) }).strict();
export const locationDeletedSchema = z.object({ ok: z.literal(true), purgeAfter: z.string() }).meta({ id: "LocationDeleted" });
/** POST /locations/:id/transfer: the new owner (a member) and the location's name typed again. */
export const locationTransferBody = z.object({ userId: uuidSchema, confirm: z.string().max(200) }).strict();

/** How long a deleted location is kept in its owner's trash before its rows are purged. */
export const TRASH_DAYS = 30;
/** GET /trash/locations: the caller's deleted locations (they were the owner), newest first. */
export const trashedLocationSchema = z
  .object({ id: uuidSchema, name: z.string(), deletedAt: z.string(), purgeAfter: z.string() })
  .meta({ id: "TrashedLocation" });
export type TrashedLocation = z.infer<typeof trashedLocationSchema>;
