/** Reports: PDF inventories made by a worker and mailed or downloaded. */
import { defineModule, type ModuleDeps } from "../manifest.js";
import type { BlobStore } from "../files/storage.js";
import { reportRoutes } from "./routes.js";
import { startReportWorker } from "./worker.js";

export const reportsModule = defineModule<ModuleDeps & { store: BlobStore }>({
  name: "reports",
  routes: reportRoutes,
  jobs: [
    {
      name: "report worker",
      start: (deps) => {
        const worker = startReportWorker(deps);
        return () => worker.stop();
      },
    },
  ],
  idKinds: ["report"],
});
