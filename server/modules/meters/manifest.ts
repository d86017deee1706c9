/** Meters and their readings, with the nudge when one is due. */
import { defineModule } from "../manifest.js";
import { meterCreate, meterDelete, meterUpdate } from "./commands.js";
import { startNudges } from "./nudges.js";
import { readingCapture } from "./readings.js";
import { meterRoutes } from "./routes.js";
import { meterNudge } from "./nudge.js";

export const metersModule = defineModule({
  name: "meters",
  routes: meterRoutes,
  commands: [meterCreate, meterUpdate, meterDelete, readingCapture, meterNudge],
  jobs: [{ name: "meter nudges", start: startNudges }],
  // A reading out of line with the meter's past is reviewed before it counts (review.ts).
  inboxKinds: ["reading"],
  shapes: ["meters", "readings"],
  idKinds: ["meter", "reading"],
});
