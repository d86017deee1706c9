/** AI reading of photos and documents: the runs, their suggestions and the worker that runs them. */
import { defineModule, type ModuleDeps } from "../manifest.js";
import type { BlobStore } from "../files/storage.js";
import { fieldConfirm, suggestionAccept } from "./commands.js";
import { extractionRoutes } from "./routes.js";
import { startExtractionWorker } from "./worker.js";

export const extractionsModule = defineModule<ModuleDeps & { store: BlobStore }>({
  name: "extractions",
  routes: extractionRoutes,
  commands: [suggestionAccept, fieldConfirm],
  jobs: [
    {
      name: "extraction worker",
      // No worker when AI reading is off (SVC_AI_CONCURRENCY=0): queued runs wait for a process that has one.
      start: (deps) => {
        const { aiConcurrency } = deps.config;
        if (!aiConcurrency) return () => {};
        const worker = startExtractionWorker({ ...deps, concurrency: aiConcurrency });
        return () => worker.stop();
      },
    },
  ],
  idKinds: ["extraction"],
});
