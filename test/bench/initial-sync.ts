/**
 * initialSync: a location of 100,000 things streamed to a fresh app in Debian's Chromium (the
 * app's own shape followers writing into its Dexie database), beside a raw IndexedDB bulk write of
 * the same rows in the same browser profile.
 *
 * - seconds: from the click on "Sign in" to the app's `things` store holding every seeded thing
 *   (polled with page.evaluate on the app's IndexedDB: count of the things store).
 * - firstScreenMs: from the same click to the first item of the Things list being visible, while
 *   the sync may still be running (`listBeforeSynced` says whether it actually was still running).
 * - rawIdbSeconds: in the same page after the app's sync, the same shape snapshot fetched page
 *   after page (GET /api/v1/sync/shape/things?offset=-1, then each page's electric-offset until the
 *   snapshot's end, sync/SPEC.md SH9: the requests the app's first round makes, one at a time),
 *   parsed, keys camel-cased as the app's column mapper does, and put into a fresh database with
 *   keyPath id and one index, locationId, in one transaction (the app's things store also has one
 *   index, [locationId+nameKey], whose array keys cost a little more: the ceiling is conservative).
 *   Timed from the first fetch to commit; `rawPutOnly` is the put-and-commit part alone.
 *
 * Each run uses a new persistent Chromium profile in a temp dir (IndexedDB on disk, LevelDB), on one
 * server and database seeded once.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../e2e/support/browser.js";
import { benchDatabase, benchService, seedThings, signedIn, stat, type Stat } from "./support.js";

export const THINGS = 100_000;
const RUNS = Number(process.env.BENCH_INITIAL_SYNC_RUNS ?? 3);
const SYNC_TIMEOUT_MS = 10 * 60_000;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface InitialSyncResult {
  things: number;
  seconds: Stat;
  rawIdbSeconds: Stat;
  rawPutOnlySeconds: Stat;
  ratioToRawIdb: number;
  firstScreenMs: Stat;
  /** Per run: was the list visible before the things store held every row? */
  listBeforeSynced: boolean[];
  runs: number;
}

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** The web app as `npm start` serves it: built when dist/client is missing or older than client/. */
export function buildClient(): void {
  const index = path.join(ROOT, "dist/client/index.html");
  if (existsSync(index) && statSync(index).mtimeMs >= newest(path.join(ROOT, "client"))) return;
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
}

/** Rows in the app's things store (0 until the app has created its database). */
async function appThingCount(page: Page, userId: string): Promise<number> {
  return page.evaluate(async (name) => {
    const dbs = await indexedDB.databases();
    if (!dbs.some((d) => d.name === name)) return 0;
    return new Promise<number>((resolve, reject) => {
      const req = indexedDB.open(name);
      req.onerror = () => reject(new Error(String(req.error)));
      req.onsuccess = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains("things")) {
          db.close();
          resolve(0);
          return;
        }
        const c = db.transaction("things").objectStore("things").count();
        c.onsuccess = () => {
          db.close();
          resolve(c.result);
        };
        c.onerror = () => {
          db.close();
          reject(new Error(String(c.error)));
        };
      };
    });
  }, `inventory-${userId}`);
}

/** The raw ceiling, in the page: fetch + parse + one-transaction put into a fresh database. */
async function rawIdbWrite(page: Page, dbName: string): Promise<{ total: number; put: number; rows: number }> {
  return page.evaluate(async (name) => {
    const t0 = performance.now();
    const messages: { value?: Record<string, unknown> }[] = [];
    let query = "offset=-1";
    for (;;) {
      const res = await fetch(`/api/v1/sync/shape/things?${query}`, { credentials: "same-origin" });
      if (!res.ok) throw new Error(`shape snapshot: ${res.status}`);
      for (const m of (await res.json()) as { value?: Record<string, unknown> }[]) messages.push(m);
      const offset = res.headers.get("electric-offset") ?? "";
      // A page offset is <head>_<n>, n >= 1; the last page hands over to the log (<head>_inf).
      if (!/^\d+_[1-9]\d*$/.test(offset)) break;
      query = `offset=${offset}&handle=${encodeURIComponent(res.headers.get("electric-handle") ?? "")}`;
    }
    // (No named functions in here: tsx would wrap them in a __name helper the page does not have.)
    const rows = messages
      .filter((m) => m.value)
      .map((m) => Object.fromEntries(Object.entries(m.value!).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), v])));
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name, 1);
      req.onupgradeneeded = () => req.result.createObjectStore("things", { keyPath: "id" }).createIndex("locationId", "locationId");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(new Error(String(req.error)));
    });
    const t1 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction("things", "readwrite");
      const store = tx.objectStore("things");
      for (const r of rows) store.put(r);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(new Error(String(tx.error)));
    });
    const t2 = performance.now();
    db.close();
    return { total: (t2 - t0) / 1000, put: (t2 - t1) / 1000, rows: rows.length };
  }, dbName);
}

async function oneRun(url: string, email: string, password: string, userId: string, run: number) {
  const profile = mkdtempSync(path.join(tmpdir(), "svc-bench-chromium-"));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_FLAGS,
      baseURL: url,
      viewport: { width: 412, height: 860 },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (err) => console.error("page error:", err.message));
    await page.goto("/sign-in");
    await page.getByLabel("Email or username").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);

    const t0 = performance.now();
    await page.getByRole("button", { name: "Sign in" }).click();
    let syncedAt: number | undefined;
    const firstScreen = (async () => {
      await page.getByRole("navigation", { name: "Main" }).waitFor({ timeout: 60_000 });
      if (!/\/things$/.test(new URL(page.url()).pathname)) {
        await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Things" }).first().click();
      }
      await page.getByRole("list", { name: "Things" }).getByRole("listitem").first().waitFor({ timeout: SYNC_TIMEOUT_MS });
      return { ms: performance.now() - t0, before: syncedAt === undefined };
    })();
    for (;;) {
      const n = await appThingCount(page, userId);
      if (n >= THINGS) {
        syncedAt = performance.now();
        break;
      }
      if (performance.now() - t0 > SYNC_TIMEOUT_MS) throw new Error(`initial sync: ${n} of ${THINGS} things after ${SYNC_TIMEOUT_MS} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (syncedAt - t0) / 1000;
    const first = await firstScreen;
    console.log(
      `initialSync run ${run + 1}: app ${seconds.toFixed(1)} s, first screen ${first.ms.toFixed(0)} ms${first.before ? " (sync still running)" : " (after sync)"}`,
    );
    const raw = await rawIdbWrite(page, `raw-bench-${run}`);
    if (raw.rows < THINGS) throw new Error(`raw write: fetched ${raw.rows} rows, expected ${THINGS}`);
    console.log(`initialSync run ${run + 1}: raw IndexedDB ${raw.total.toFixed(1)} s (put ${raw.put.toFixed(1)} s)`);
    return { seconds, firstScreenMs: first.ms, listBeforeSynced: first.before, raw: raw.total, rawPut: raw.put };
  } finally {
    await context?.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  }
}

export async function benchInitialSync(): Promise<InitialSyncResult> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`initialSync needs Chromium at ${CHROMIUM_PATH}`);
  buildClient();
  const db = await benchDatabase();
  const svc = await benchService(db.url);
  try {
    const owner = await signedIn(svc.url, "Initial Sync Owner");
    await seedThings(db.url, owner.locationId, THINGS);
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await oneRun(svc.url, owner.email, owner.password, owner.userId, i));
    const seconds = stat(runs.map((r) => r.seconds));
    const rawIdbSeconds = stat(runs.map((r) => r.raw));
    return {
      things: THINGS,
      seconds,
      rawIdbSeconds,
      rawPutOnlySeconds: stat(runs.map((r) => r.rawPut)),
      ratioToRawIdb: seconds.median / rawIdbSeconds.median,
      firstScreenMs: stat(runs.map((r) => r.firstScreenMs)),
      listBeforeSynced: runs.map((r) => r.listBeforeSynced),
      runs: runs.length,
    };
  } finally {
    await svc.close();
    await db.drop();
  }
}
