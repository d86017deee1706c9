/**
 * A person's capture settings in one location (`GET`/`PUT /api/v1/locations/{id}/capture-settings`):
 * `straightIn` makes their own captures there go straight in, accepted as they arrive, instead of
 * waiting in the inbox for an Accept. Per person and location: it is about one's own captures.
 */
import { z } from "zod";

export const captureSettingsSchema = z.object({ straightIn: z.boolean() }).strict().meta({ id: "CaptureSettings" });
export type CaptureSettings = z.infer<typeof captureSettingsSchema>;
