/**
 * The built app served by the real server on a fresh database (test/support/app.ts), and the
 * steps a person takes in it, by role and accessible name as a screen reader would find them.
 */
import path from "node:path";
import { expect, onTestFailed } from "vitest";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { startService, type TestService } from "../../support/app.js";
import { launchBrowser } from "./browser.js";

export const PASSWORD = "correct horse battery";
export const CLIENT_DIR = path.resolve(import.meta.dirname, "../../../dist/client");

export interface E2e {
  svc: TestService;
  browser: Browser;
  /** A new browser profile (a device), phone-sized unless a viewport is given. */
  device(opts?: { viewport?: { width: number; height: number } }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/** `env`: configuration a file needs on top of the defaults (e.g. the web push test settings). */
export async function startE2e(env: Record<string, string> = {}): Promise<E2e> {
  const svc = await startService({ SVC_CLIENT_DIR: CLIENT_DIR, ...env });
  const browser = await launchBrowser();
  const contexts: BrowserContext[] = [];
  return {
    svc,
    browser,
    async device(opts = {}) {
      const context = await browser.newContext({ viewport: opts.viewport ?? { width: 412, height: 860 }, baseURL: svc.config.publicUrl.origin });
      contexts.push(context);
      const page = await context.newPage();
      page.on("pageerror", (err) => console.error("page error:", err.message));
      const name = `device ${contexts.length}`;
      const trace = traceRequests(page);
      onTestFailed(async () => console.error(`--- ${name}: its last API requests and sync status\n${await trace.report()}`));
      return { context, page };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
      await svc.close();
    },
  };
}

/**
 * What a device asked of the API lately (method, path, status, ms), printed with its sync status
 * when a test fails: a sync step that timed out in CI says which request it was waiting on.
 */
function traceRequests(page: Page): { report(): Promise<string> } {
  const t0 = Date.now();
  const lines: string[] = [];
  const started = new Map<Request, number>();
  const keep = (line: string) => {
    lines.push(`${String(Date.now() - t0).padStart(6)} ms ${line}`);
    if (lines.length > 80) lines.shift();
  };
  const api = (url: string) => {
    const u = new URL(url);
    return u.pathname.startsWith("/api/") ? `${u.pathname}${u.search}` : null;
  };
  page.on("request", (req) => {
    if (api(req.url())) started.set(req, Date.now());
  });
  page.on("requestfinished", (req) => {
    const at = started.get(req);
    if (at === undefined) return;
    started.delete(req);
    // The page may close before the response is read: then the line says so instead of rejecting.
    req.response().then(
      (res) => keep(`${req.method()} ${api(req.url())} -> ${res?.status() ?? "?"} in ${Date.now() - at} ms`),
      () => keep(`${req.method()} ${api(req.url())} finished in ${Date.now() - at} ms (page closed)`),
    );
  });
  page.on("requestfailed", (req) => {
    const at = started.get(req);
    if (at === undefined) return;
    started.delete(req);
    keep(`${req.method()} ${api(req.url())} failed (${req.failure()?.errorText ?? "?"}) after ${Date.now() - at} ms`);
  });
  return {
    async report() {
      const pending = [...started].map(([req, at]) => `pending ${req.method()} ${api(req.url())} for ${Date.now() - at} ms`);
      const status = await page
        .evaluate(async () => {
          const open = (name: string) =>
            new Promise<IDBDatabase>((resolve, reject) => {
              const req = indexedDB.open(name);
              req.onsuccess = () => resolve(req.result);
              req.onerror = () => reject(new Error(String(req.error)));
            });
          const get = (db: IDBDatabase, store: string, key: string) =>
            new Promise<unknown>((resolve) => {
              const req = db.transaction(store).objectStore(store).get(key);
              req.onsuccess = () => resolve(req.result);
              req.onerror = () => resolve(undefined);
            });
          const user = (await get(await open("inventory-device"), "kv", "user")) as { value?: { id: string } } | undefined;
          if (!user?.value) return "signed out";
          return JSON.stringify(await get(await open(`inventory-${user.value.id}`), "meta", "status"));
        })
        .catch((err: unknown) => `unreadable (${String(err)})`);
      return [...lines, ...pending, `sync status: ${status}`].join("\n");
    },
  };
}

let n = 0;
export const freshEmail = (who: string) => `${who}${++n}-${Date.now()}@example.test`;

/** Signs up through the app (optionally from an invitation link) and waits for the first screen. */
export async function signUp(page: Page, name: string, email: string, inviteLink?: string): Promise<void> {
  if (inviteLink) {
    await page.goto(inviteLink);
    await page.getByRole("link", { name: "Create an account" }).click();
  } else await page.goto("/sign-up");
  await page.getByLabel("Your name", { exact: true }).fill(name);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create an account" }).click();
  await page.getByRole("navigation", { name: "Main" }).waitFor();
}

export async function signIn(page: Page, login: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email or username").fill(login);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Waits until the service worker controls the app, so it opens with the network off. */
export async function serviceWorkerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

/** Waits until this device has nothing left to push and nothing waiting for its txid. */
export async function synced(page: Page, timeout = 30_000): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const user = await new Promise<{ id: string } | undefined>((resolve, reject) => {
            const req = indexedDB.open("inventory-device");
            req.onerror = () => reject(new Error(String(req.error)));
            req.onsuccess = () => {
              const get = req.result.transaction("kv").objectStore("kv").get("user");
              get.onsuccess = () => resolve((get.result as { value?: { id: string } } | undefined)?.value);
            };
          });
          if (!user) return -1;
          return new Promise<number>((resolve, reject) => {
            const req = indexedDB.open(`inventory-${user.id}`);
            req.onerror = () => reject(new Error(String(req.error)));
            req.onsuccess = () => {
              const count = req.result.transaction("outbox").objectStore("outbox").count();
              count.onsuccess = () => resolve(count.result);
            };
          });
        }),
      { timeout, interval: 250 },
    )
    .toBe(0);
}

/**
 * The location id in the URL (/l/:id/...), once the app has gone there: after sign-up it passes
 * through /locations until the person's locations have loaded.
 */
export async function locationIdOf(page: Page): Promise<string> {
  await page.waitForURL((url) => /\/l\/[^/]+/.test(url.pathname), { timeout: 15_000 });
  const m = /\/l\/([^/]+)/.exec(new URL(page.url()).pathname);
  if (!m?.[1]) throw new Error(`no location in ${page.url()}`);
  return m[1];
}

/** Opens a screen from the main navigation; on a phone, tabs past the fourth are behind "More". */
export async function goTo(page: Page, navLabel: string): Promise<void> {
  const nav = page.getByRole("navigation", { name: "Main" });
  const link = nav.getByRole("link", { name: navLabel, exact: false }).first();
  const more = nav.getByRole("button", { name: "More" });
  for (let tries = 0; tries < 5; tries++) {
    try {
      // Right after sign-up the navigation may still be drawing: wait for the link or "More".
      await link.or(more).first().waitFor({ timeout: 10_000 });
      // A wide screen has no "More"; only a phone hides the later tabs behind it.
      if (!(await link.isVisible()) && (await more.isVisible())) await more.click({ timeout: 5000 });
      return await link.click({ timeout: 5000 });
    } catch {
      // The screen changed under the click (it finished loading, or moved on): look again.
    }
  }
  await link.click();
}
