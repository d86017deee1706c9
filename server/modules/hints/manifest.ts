/** First-use hints: seen and dismissed, per person, remembered across their devices. */
import { defineModule } from "../manifest.js";
import { hintRoutes } from "./routes.js";

export const hintsModule = defineModule({ name: "hints", routes: hintRoutes });
