/** Locations: their creation, settings and trash, and the owner records every user starts with. */
import { defineModule, periodicJob, type ModuleDeps } from "../manifest.js";
import type { BlobStore } from "../files/storage.js";
import { repairBootstraps } from "./bootstrap.js";
import { locationCreate, locationUpdate } from "./commands.js";
import { purgeDueLocations } from "./purge.js";
import { locationRoutes } from "./routes.js";
import { locationDelete, locationRestore, locationTransfer } from "./lifecycle.js";

export const locationsModule = defineModule<ModuleDeps & { store: BlobStore }>({
  name: "locations",
  routes: locationRoutes,
  commands: [locationCreate, locationUpdate, locationDelete, locationRestore, locationTransfer],
  jobs: [
    periodicJob<ModuleDeps & { store: BlobStore }>("bootstrap repair", "bootstrap repair failed", async ({ db, logger }) => {
      const fixed = await repairBootstraps(db);
      if (fixed) logger.warn({ fixed }, "bootstrap repair: created missing owner records");
    }),
    // Locations whose 30 days in the trash are over, removed for good with their photos.
    periodicJob<ModuleDeps & { store: BlobStore }>("trash purge", "purging trashed locations failed", async ({ db, store, logger }) => {
      await purgeDueLocations({ db, store, logger });
    }),
  ],
  shapes: ["locations"],
  idKinds: ["location"],
});
