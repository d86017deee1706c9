/**
 * The service worker: precaches the app (Workbox injectManifest fills __WB_MANIFEST at build time)
 * so that after one online visit it opens with no network; answers every client route with the
 * cached app shell; keeps photos from the server for offline viewing; and, where the browser has
 * Background Sync, pushes the outbox when the network returns even if no tab is open.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { CacheFirst } from "workbox-strategies";
import { ExpirationPlugin } from "workbox-expiration";
import type { PrecacheEntry } from "workbox-precaching";
import type { WorkboxPlugin } from "workbox-core/types.js";
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

// Workbox's plugin classes declare optional callbacks as `?: T | undefined`, which its own
// WorkboxPlugin type refuses under exactOptionalPropertyTypes; the runtime contract is the same.
const expiration = new ExpirationPlugin({ maxEntries: 500, maxAgeSeconds: 30 * 86400 }) as unknown as WorkboxPlugin;

// A file's bytes never change under its id, and neither does its thumbnail, so a cached photo or
// thumbnail (/api/v1/files/{id} and /api/v1/files/{id}/thumb) is always right.
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && request.method === "GET" && /^\/api\/v1\/files\/[^/]+(\/thumb)?$/.test(url.pathname),
  new CacheFirst({ cacheName: "files", plugins: [expiration] }),
);

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
