/** Webhooks: a location's subscriptions, and the worker that delivers their events. */
import { defineModule } from "../manifest.js";
import { webhookRoutes } from "./routes.js";
import { startWebhookWorker } from "./worker.js";

export const webhooksModule = defineModule({
  name: "webhooks",
  routes: webhookRoutes,
  jobs: [
    {
      name: "webhook deliveries",
      start: (deps) => {
        const worker = startWebhookWorker(deps);
        return () => worker.stop();
      },
    },
  ],
  idKinds: ["webhook"],
});
