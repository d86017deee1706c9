/**
 * Registers the service worker with workbox-window. A new version waits until every tab of the old
 * one is closed (the default), so a page never runs against assets of another build; the next
 * visit gets it.
 */
import { Workbox } from "workbox-window";

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const wb = new Workbox("/sw.js", { type: "module" });
  wb.register().catch((err: unknown) => console.warn("service worker not registered", err));
}
