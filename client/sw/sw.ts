/**
 * The service worker: precaches the app (Workbox injectManifest fills __WB_MANIFEST at build time)
 * so that after one online visit it opens with no network; answers every client route with the
 * cached app shell; where the browser has
 * Background Sync, pushes the outbox when the network returns even if no tab is open; and shows
 * the server's web push notifications, opening their item when tapped.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import type { PrecacheEntry } from "workbox-precaching";
import { userDb } from "../db/database.js";
import { clientId, currentUser } from "../db/device.js";
import { ifNoLeader } from "../sync/leader.js";
import { BATCH_SIZE, pushOnce, type PushPace } from "../sync/pusher.js";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

/** Paths that are the server's, never the app's (the server's own rule: server/http/client-app.ts). */
const SERVER_PATHS = [/^\/api(\/|$)/, /^\/mcp(\/|$)/, /^\/health(\/|$)/, /^\/\.well-known(\/|$)/];

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL("/index.html"), { denylist: SERVER_PATHS }));

// Photos seen are kept by the app in the user's own database, within a budget
// (client/db/photo-cache.ts), so that signing out takes them away; the shared "files" cache that
// once kept them for every user of the browser goes.
self.addEventListener("activate", (event: ExtendableEvent) => {
  event.waitUntil(caches.delete("files"));
});

self.addEventListener("message", (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

/** Pushes the whole outbox unless a tab is already syncing; throws to have the browser retry later. */
async function drainOutbox(): Promise<void> {
  const user = await currentUser();
  if (!user) return;
  const db = userDb(user.id);
  const id = await clientId();
  await ifNoLeader(user.id, async () => {
    const size: PushPace = { value: BATCH_SIZE };
    for (;;) {
      const outcome = await pushOnce(db, id, size);
      if (outcome.kind === "idle" || outcome.kind === "blocked") return;
      if (outcome.kind === "retry") throw new Error(outcome.message);
    }
  });
}

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

self.addEventListener("sync", (event: Event) => {
  const e = event as SyncEvent;
  if (e.tag === "outbox") e.waitUntil(drainOutbox());
});

/** What the server sends (shared/push.ts PushMessage), checked by hand to keep zod out of the worker. */
interface PushMessage {
  title: string;
  body: string;
  url: string;
  tag: string;
}

function pushMessageOf(data: PushMessageData | null): PushMessage | null {
  try {
    const m = data?.json() as Partial<PushMessage> | undefined;
    if (!m || typeof m.title !== "string" || typeof m.body !== "string" || typeof m.tag !== "string") return null;
    // Only a path of this app is ever opened, whatever a message says.
    if (typeof m.url !== "string" || !m.url.startsWith("/") || m.url.startsWith("//")) return null;
    return m as PushMessage;
  } catch {
    return null;
  }
}

self.addEventListener("push", (event: PushEvent) => {
  const message = pushMessageOf(event.data);
  if (!message) return;
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      data: { url: message.url },
      icon: "/icon.svg",
    }),
  );
});

/** Tapping a notification opens its item: in an open window of the app if there is one, else a new one. */
self.addEventListener("notificationclick", (event: NotificationEvent) => {
  event.notification.close();
  const path = (event.notification.data as { url?: unknown } | null)?.url;
  const url = new URL(typeof path === "string" && path.startsWith("/") && !path.startsWith("//") ? path : "/", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        const focused = await open.focus();
        await focused.navigate(url).catch(() => self.clients.openWindow(url));
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
