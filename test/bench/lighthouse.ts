/**
 * lighthouse: Lighthouse 12's mobile preset (its default: a Moto G Power's screen, simulated slow
 * 4G and a 4x slower CPU) on a fresh instance (embedded PGlite in a temp dir, the built app) with
 * one person and 30 things, in Debian's Chromium. Printed, not asserted: issue #33's targets are
 * performance >= 90, LCP <= 2.5 s, CLS <= 0.1 and TBT <= 200 ms on each page.
 *
 * Pages, each run BENCH_LIGHTHOUSE_RUNS times (3 unless set), the median by score reported:
 * - sign-in: signed out, a first visit.
 * - things list and a thing page, "first visit": signed in (the session cookie in the browser) on a
 *   device that has nothing yet: service worker, caches and IndexedDB cleared before each run, so
 *   the page waits for the first sync of those 30 things.
 * - the same two, "again": what a phone that has the app meets every day. The page was opened
 *   before (its data in IndexedDB, the service worker controlling, its chunks precached) and
 *   Lighthouse keeps that storage; only the first-visit runs clear it.
 *
 * Also printed: the first load's gzipped size (the entry chunk, what it imports and its CSS: what
 * index.html names, before any screen's own chunk), and sign-in -> first thing listed with these
 * 30 things (the initialSync bench measures the same with 100,000 things, on PostgreSQL).
 */
import { readFileSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Config } from "lighthouse";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../e2e/support/browser.js";
import { buildClient } from "./initial-sync.js";
import { benchService, signedIn, stat, type Stat } from "./support.js";

const THINGS = 30;
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface PageFigures {
  page: string;
  /** Lighthouse's performance score, 0-100. */
  score: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** Every run's score, to see the spread on a shared machine. */
  scores: number[];
  /** The element Lighthouse took for the largest paint, and what shifted (from the median run). */
  lcpElement: string | undefined;
  shifts: string[];
  /** The scripts that ran longest on the main thread (median run), with their scripting time. */
  scripts: string[];
}

export interface LighthouseResult {
  pages: PageFigures[];
  firstLoadGzipKb: number;
  firstLoadFiles: string[];
  /** Sign-in click -> first thing listed (30 things, first visit), ms. */
  firstScreenMs: Stat;
  runs: number;
}

/** What index.html makes a browser fetch before the app runs: the entry, its preloads, its CSS. */
function firstLoad(): { kb: number; files: string[] } {
  const dir = path.join(ROOT, "dist/client");
  const html = readFileSync(path.join(dir, "index.html"), "utf8");
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const bytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(dir, f))).length, 0);
  return { kb: bytes / 1024, files };
}

/** Signs a person up with 30 things over the API (as a phone would have made them). */
async function seed(url: string): Promise<{ cookie: string; email: string; password: string; locationId: string; thingId: string }> {
  const person = await signedIn(url, "Lighthouse Owner");
  const headers = { "content-type": "application/json", origin: url, cookie: person.cookie };
  const ids: string[] = [];
  for (let i = 1; i <= THINGS; i++) {
    const res = await fetch(`${url}/api/v1/locations/${person.locationId}/things`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: `Thing ${i}`, description: `The ${i}th thing on the shelf` }),
    });
    if (!res.ok) throw new Error(`adding a thing: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return { ...person, thingId: ids[0]! };
}

const FIRST_VISIT: StorageType[] = ["file_systems", "shader_cache", "service_workers", "cache_storage", "indexeddb", "local_storage"];
type StorageType = NonNullable<NonNullable<Config["settings"]>["clearStorageTypes"]>[number];

/** A run Lighthouse itself could not record (NO_NAVSTART and the like, now and then on a busy machine). */
class RunFailed extends Error {}

async function audit(page: Page, url: string, again: boolean) {
  const result = await lighthouse(
    url,
    { output: "json", logLevel: "error", onlyCategories: ["performance"], disableStorageReset: again },
    // Lighthouse's default reset keeps IndexedDB: a first visit here clears it too (cookies stay).
    again ? undefined : { extends: "lighthouse:default", settings: { clearStorageTypes: FIRST_VISIT } },
    page,
  );
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new RunFailed(`lighthouse on ${url}: ${lhr.runtimeError.message}`);
  const n = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  type Items = { items?: { node?: { snippet?: string; selector?: string }; score?: number }[] };
  const lcpItems = (lhr.audits["largest-contentful-paint-element"]?.details as { items?: Items[] } | undefined)?.items?.[0]?.items;
  const shiftItems = (lhr.audits["layout-shifts"]?.details as Items | undefined)?.items ?? [];
  // Where the main thread's time went: the scripts that ran longest (what blocking time is made of).
  const scripts = ((lhr.audits["bootup-time"]?.details as { items?: { url: string; scripting: number }[] } | undefined)?.items ?? [])
    .sort((a, b) => b.scripting - a.scripting)
    .slice(0, 3)
    .map((i) => `${i.url.replace(/^.*\//, "")} ${Math.round(i.scripting)} ms`);
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: n("largest-contentful-paint"),
    cls: n("cumulative-layout-shift"),
    tbtMs: n("total-blocking-time"),
    lcpElement: lcpItems?.[0]?.node?.selector,
    shifts: lhr.audits["layout-shifts"]?.errorMessage
      ? [`not found: ${lhr.audits["layout-shifts"].errorMessage}`]
      : shiftItems.map((s) => `${s.node?.selector ?? "?"} (${(s.score ?? 0).toFixed(3)})`),
    scripts,
  };
}

function pageFigures(name: string, runs: Awaited<ReturnType<typeof audit>>[]): PageFigures {
  const sorted = [...runs].sort((a, b) => a.score - b.score);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return { page: name, ...median, scores: runs.map((r) => r.score) };
}

/** Opens `url` as a person would and waits until the page can open offline next time (service worker in control, data in IndexedDB). */
async function visit(page: Page, url: string, ready: string): Promise<void> {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector(ready, { timeout: 60_000 });
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, { timeout: 60_000 });
}

/** Sign-in click -> first item of the Things list, in a fresh profile of its own. */
async function firstScreenAfterSignIn(browser: Browser, url: string, email: string, password: string): Promise<number> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.goto(`${url}/sign-in`);
    await page.locator("input[name=login]").fill(email);
    await page.locator("input[name=password]").fill(password);
    const t0 = performance.now();
    await page.locator("form:has(input[name=password]) button[type=submit]").click();
    await page.waitForSelector("nav[aria-label] a", { timeout: 60_000 });
    if (!/\/things$/.test(new URL(page.url()).pathname)) await page.locator(`nav a[href$="/things"]`).click();
    await page.waitForSelector("ul[aria-label] li a[href*='/things/']", { timeout: 60_000 });
    return performance.now() - t0;
  } finally {
    await context.close();
  }
}

export async function benchLighthouse(): Promise<LighthouseResult> {
  buildClient();
  const load = firstLoad();
  const svc = await benchService();
  const profile = mkdtempSync(path.join(tmpdir(), "svc-bench-lighthouse-"));
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  let browser: Browser | undefined;
  try {
    const person = await seed(svc.url);
    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM_PATH,
      userDataDir: profile,
      chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
    });
    browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    const things = `${svc.url}/l/${person.locationId}/things`;
    const thing = `${things}/${person.thingId}`;
    const pages: PageFigures[] = [];
    const measure = async (name: string, url: string, again: boolean, before?: () => Promise<void>) => {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        for (let attempt = 1; attempt <= 3; attempt++) {
          // From a blank page: Lighthouse now and then missed the navigation's start coming from the previous run's page.
          await page.goto("about:blank");
          await before?.();
          try {
            runs.push(await audit(page, url, again));
            break;
          } catch (err) {
            if (!(err instanceof RunFailed)) throw err;
            console.log(`${err.message} (attempt ${attempt} of 3)`);
          }
        }
      }
      if (!runs.length) {
        console.log(`lighthouse ${name}: not recorded (every attempt failed)`);
        return;
      }
      const figures = pageFigures(name, runs);
      console.log(
        `lighthouse ${name}: score ${figures.score} (${figures.scores.join(", ")}), LCP ${Math.round(figures.lcpMs)} ms, CLS ${figures.cls.toFixed(3)}, TBT ${Math.round(figures.tbtMs)} ms` +
          `${figures.lcpElement ? `; LCP element ${figures.lcpElement}` : ""}${figures.shifts.length ? `; shifted ${figures.shifts.join(", ")}` : ""}` +
          `; scripts ${figures.scripts.join(", ")}`,
      );
      pages.push(figures);
    };

    await measure("sign-in", `${svc.url}/sign-in`, false);
    const host = new URL(svc.url).hostname;
    for (const c of person.cookie.split("; ")) {
      const [name, ...value] = c.split("=");
      await page.setCookie({ name: name!, value: value.join("="), domain: host, path: "/", httpOnly: true, sameSite: "Lax" });
    }
    await measure("things list, first visit", things, false);
    await measure("thing page, first visit", thing, false);
    await measure("things list, again", things, true, () => visit(page, things, "ul[aria-label] li a[href*='/things/']"));
    await measure("thing page, again", thing, true, () => visit(page, thing, "main h1, main h2"));

    const firstScreens: number[] = [];
    for (let i = 0; i < RUNS; i++) firstScreens.push(await firstScreenAfterSignIn(browser, svc.url, person.email, person.password));
    return { pages, firstLoadGzipKb: load.kb, firstLoadFiles: load.files, firstScreenMs: stat(firstScreens), runs: RUNS };
  } finally {
    await browser?.disconnect().catch(() => undefined);
    chrome?.kill();
    await svc.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
