/** Reports: PDF inventories made by a worker and mailed or downloaded. */
import { defineModule, workerJob, type ModuleDeps } from "../manifest.js";
import type { BlobStore } from "../files/storage.js";
import { reportRoutes } from "./routes.js";
import { startReportWorker } from "./worker.js";

export const reportsModule = defineModule<ModuleDeps & { store: BlobStore }>({
  name: "reports",
  routes: reportRoutes,
  jobs: [workerJob("report worker", (deps) => startReportWorker(deps))],
  idKinds: ["report"],
});
