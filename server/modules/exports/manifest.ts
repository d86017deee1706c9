/** Exports and imports: a location's ZIP or CSV, made by a worker, and restoring or importing one. */
import { defineModule, workerJob, type ModuleDeps } from "../manifest.js";
import type { BlobStore } from "../files/storage.js";
import { exportRoutes } from "./routes.js";
import { exportDirOf, startExportWorker } from "./worker.js";

export const exportsModule = defineModule<ModuleDeps & { store: BlobStore }>({
  name: "exports",
  routes: exportRoutes,
  jobs: [
    workerJob("export worker", ({ db, store, logger, config }) =>
      startExportWorker({ db, store, logger, dir: exportDirOf(config.dataDir), origin: config.publicUrl.origin }),
    ),
  ],
  idKinds: ["export"],
});
