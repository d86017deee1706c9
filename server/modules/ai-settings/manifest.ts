/** AI settings: a person's and their owner account's provider, and a location's AI costs. */
import { defineModule } from "../manifest.js";
import { aiSettingsRoutes } from "./routes.js";

export const aiSettingsModule = defineModule({ name: "ai-settings", routes: aiSettingsRoutes });
