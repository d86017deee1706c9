/** AI reading of photos and documents: the runs, their suggestions and the worker that runs them. */
import { defineModule, workerJob, type ModuleDeps } from "../manifest.js";
import type { BlobStore } from "../files/storage.js";
import { fieldConfirm, suggestionAccept } from "./commands.js";
import { extractionRoutes } from "./routes.js";
import { startExtractionWorker } from "./worker.js";
import { thingExtract } from "./apply.js";

export const extractionsModule = defineModule<ModuleDeps & { store: BlobStore }>({
  name: "extractions",
  routes: extractionRoutes,
  commands: [suggestionAccept, fieldConfirm, thingExtract],
  jobs: [
    // No worker when AI reading is off (SVC_AI_CONCURRENCY=0): queued runs wait for a process that has one.
    workerJob("extraction worker", (deps) => (deps.config.aiConcurrency ? startExtractionWorker({ ...deps, concurrency: deps.config.aiConcurrency }) : null)),
  ],
  idKinds: ["extraction"],
});
