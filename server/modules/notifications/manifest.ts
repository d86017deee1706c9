/** Web push: a device's subscriptions, and the dispatcher that sends what they asked for. */
import { defineModule } from "../manifest.js";
import { startPushDispatcher } from "./dispatcher.js";
import { notificationRoutes } from "./routes.js";

export const notificationsModule = defineModule({
  name: "notifications",
  routes: notificationRoutes,
  jobs: [{ name: "push dispatcher", start: startPushDispatcher }],
  idKinds: ["pushSubscription"],
});
