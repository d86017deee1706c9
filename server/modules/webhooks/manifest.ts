/** Webhooks: a location's subscriptions, and the worker that delivers their events. */
import { defineModule, workerJob } from "../manifest.js";
import { webhookRoutes } from "./routes.js";
import { startWebhookWorker } from "./worker.js";

export const webhooksModule = defineModule({
  name: "webhooks",
  routes: webhookRoutes,
  jobs: [workerJob("webhook deliveries", (deps) => startWebhookWorker(deps))],
  idKinds: ["webhook"],
});
