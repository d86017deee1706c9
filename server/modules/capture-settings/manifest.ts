/** A person's own capture settings in one location. */
import { defineModule } from "../manifest.js";
import { captureSettingRoutes } from "./routes.js";

export const captureSettingsModule = defineModule({ name: "capture-settings", routes: captureSettingRoutes });
