/** GET and PUT /api/v1/locations/{id}/capture-settings: your own capture settings in a location. */
import { captureSettingsSchema } from "../../../shared/capture-settings.js";
import { idParams, defineRoute, type RouteDef, type RouteDeps } from "../../http/route.js";
import { getCaptureSettings, putCaptureSettings } from "./service.js";

export function captureSettingRoutes({ db }: Pick<RouteDeps, "db">): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/capture-settings",
      summary: "Your capture settings in a location (whether your own captures go straight in)",
      tag: "inbox",
      params: idParams,
      response: captureSettingsSchema,
      handler: ({ actor, params }) => getCaptureSettings(db, actor, params.id),
    }),
    defineRoute({
      method: "put",
      path: "/api/v1/locations/:id/capture-settings",
      summary: "Set whether your own captures in a location go straight in (accepted as they arrive) or wait in the inbox",
      tag: "inbox",
      params: idParams,
      body: captureSettingsSchema,
      response: captureSettingsSchema,
      handler: ({ actor, params, body }) => putCaptureSettings(db, actor, params.id, body),
    }),
  ];
}
