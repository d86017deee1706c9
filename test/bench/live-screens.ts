/**
 * liveScreens: live on every screen (sync/SPEC.md SH11). The web app open in Debian's Chromium, one
 * person signed in; the same person's "other device" (an HTTP client) pushes a change to one shape
 * at a time, and the time from the push's answer to the row being in the app's IndexedDB table is
 * that shape's arrival. Per shape, p50 and p95 over BENCH_LIVE_SCREENS_SAMPLES changes (10 by
 * default), on PGlite and, when BENCH_DATABASE_URL's server answers, on PostgreSQL. Printed, not
 * asserted (the aim: p95 under 1 s).
 *
 * Not measured: `memberships` (a person's own membership changes only when someone else re-roles
 * them, which also changes every shape's scope) and `codes` (printed label sheets only).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { v7 as uuidv7 } from "uuid";
import { PROTOCOL } from "../../sync/protocol.js";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../e2e/support/browser.js";
import { buildClient } from "./initial-sync.js";
import { benchDatabase, benchService, percentile, signedIn } from "./support.js";

const SAMPLES = Number(process.env.BENCH_LIVE_SCREENS_SAMPLES ?? 10);
const ARRIVAL_TIMEOUT_MS = 70_000;

export interface ShapeArrival {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  samples: number;
}

export interface LiveScreensResult {
  /** Per backend ("pglite", "postgres"), per shape. */
  backends: Record<string, Record<string, ShapeArrival>>;
  /** Long requests the page held open at the end (the wake stream, and any live shape request). */
  liveShapeRequests: number;
}

interface Person {
  cookie: string;
  locationId: string;
  userId: string;
  email: string;
  password: string;
}

/** What one sample writes, and the row it waits for in the app's table. */
interface Change {
  shape: string;
  ops?: unknown[];
  rest?: { method: string; path: string; body: unknown };
  /** The row that shows the change: by id, and (for an update) a column's new value. */
  id: string;
  field?: [string, string];
}

/** Waits in the page until `store` holds `id` (with `field` at its value); answers Date.now() then. */
async function arrivedAt(page: Page, userId: string, change: Change): Promise<number> {
  return page.evaluate(
    async ({ name, store, id, field, timeout }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(new Error(String(req.error)));
      });
      const deadline = Date.now() + timeout;
      try {
        for (;;) {
          const row = await new Promise<Record<string, unknown> | undefined>((resolve, reject) => {
            const get = db.transaction(store).objectStore(store).get(id);
            get.onsuccess = () => resolve(get.result as Record<string, unknown> | undefined);
            get.onerror = () => reject(new Error(String(get.error)));
          });
          if (row && (!field || row[field[0]] === field[1])) return Date.now();
          if (Date.now() > deadline) throw new Error(`${store} ${id}: not arrived in ${timeout} ms`);
          await new Promise((r) => setTimeout(r, 5));
        }
      } finally {
        db.close();
      }
    },
    { name: `inventory-${userId}`, store: change.shape, id: change.id, field: change.field, timeout: ARRIVAL_TIMEOUT_MS },
  );
}

async function send(url: string, p: Person, change: Change): Promise<void> {
  const headers = { cookie: p.cookie, origin: url, "content-type": "application/json" };
  const res = change.ops
    ? await fetch(`${url}/api/v1/sync/push`, {
        method: "POST",
        headers,
        body: JSON.stringify({ clientId: "other-device", protocol: PROTOCOL, ops: change.ops }),
      })
    : await fetch(`${url}${change.rest!.path}`, { method: change.rest!.method, headers, body: JSON.stringify(change.rest!.body) });
  const text = await res.text();
  if (!res.ok || (change.ops && !text.includes('"applied"'))) throw new Error(`${change.shape}: ${res.status} ${text.slice(0, 300)}`);
}

async function rest<T>(url: string, p: Person, method: string, pathname: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${pathname}`, {
    method,
    headers: { cookie: p.cookie, origin: url, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The changes of sample `i`, one per shape; their things and boxes made beforehand. */
async function changesOf(url: string, p: Person, i: number, shared: { typeId: string; moveId: string; templateThing: string }): Promise<Change[]> {
  const loc = p.locationId;
  const at = () => new Date().toISOString();
  const op = (name: string, args: Record<string, unknown>) => ({ id: uuidv7(), name, locationId: loc, args, at: at() });
  const thing = await rest<{ id: string }>(url, p, "POST", `/api/v1/locations/${loc}/things`, { name: `Sample thing ${i}` });
  const box = await rest<{ id: string }>(url, p, "POST", `/api/v1/locations/${loc}/things`, { name: `Sample box ${i}`, isContainer: true });
  const moveBox = await rest<{ id: string }>(url, p, "POST", `/api/v1/locations/${loc}/things`, { name: `Moving box ${i}`, isContainer: true });
  const meterId = uuidv7();
  await send(url, p, { shape: "meters", id: meterId, ops: [op("meter.create", { id: meterId, thingId: thing.id, kind: "water", unit: "m3" })] });
  const ids = Array.from({ length: 16 }, () => uuidv7());
  const contactId = uuidv7();
  const loanId = uuidv7();
  const locationName = `Bench home ${i}`;
  return [
    { shape: "things", id: ids[0]!, ops: [op("thing.create", { id: ids[0], name: `Live thing ${i}` })] },
    { shape: "places", id: ids[1]!, ops: [op("place.create", { id: ids[1], name: `Live shelf ${i}` })] },
    { shape: "meters", id: ids[2]!, ops: [op("meter.create", { id: ids[2], thingId: thing.id, kind: "gas", unit: "m3" })] },
    { shape: "readings", id: ids[3]!, ops: [op("reading.capture", { id: ids[3], meterId, value: String(100 + i), takenAt: at() })] },
    { shape: "box_checks", id: ids[4]!, ops: [op("boxcheck.record", { id: ids[4], containerId: box.id, at: at() })] },
    { shape: "moves", id: ids[5]!, ops: [op("move.create", { id: ids[5], name: `Live move ${i}` })] },
    { shape: "move_boxes", id: ids[6]!, ops: [op("box.add", { id: ids[6], moveId: shared.moveId, containerId: moveBox.id })] },
    {
      shape: "loans",
      id: loanId,
      ops: [op("loan.create", { id: loanId, thingId: thing.id, direction: "out", person: { name: `Borrower ${i}`, id: contactId } })],
    },
    {
      shape: "contacts",
      id: ids[7]!,
      ops: [op("loan.create", { id: uuidv7(), thingId: box.id, direction: "out", person: { name: `Neighbour ${i}`, id: ids[7] } })],
    },
    { shape: "inbox", id: ids[8]!, ops: [op("thing.capture", { id: ids[8], name: `Captured ${i}` })] },
    { shape: "types", id: ids[9]!, ops: [op("type.create", { id: ids[9], name: `Live type ${i}` })] },
    {
      shape: "type_fields",
      id: ids[10]!,
      ops: [op("type_field.create", { id: ids[10], typeId: shared.typeId, key: `f${i}`, label: `Field ${i}`, kind: "text" })],
    },
    { shape: "place_kinds", id: ids[11]!, ops: [op("place_kind.create", { id: ids[11], name: `Live kind ${i}` })] },
    { shape: "brands", id: ids[12]!, ops: [op("brand.create", { id: ids[12], name: `Live brand ${i}` })] },
    { shape: "tags", id: ids[13]!, ops: [op("tag.create", { id: ids[13], name: `live-tag-${i}` })] },
    {
      shape: "templates",
      id: ids[14]!,
      ops: [op("template.create", { id: ids[14], thingId: shared.templateThing, name: `Live template ${i}`, locationIds: [loc] })],
    },
    { shape: "locations", id: loc, field: ["name", locationName], rest: { method: "PATCH", path: `/api/v1/locations/${loc}`, body: { name: locationName } } },
  ];
}

/** The app in a fresh Chromium profile, signed in as `p`, with every shape caught up. */
async function openApp(url: string, p: Person): Promise<{ context: BrowserContext; page: Page; profile: string }> {
  const profile = mkdtempSync(path.join(tmpdir(), "svc-bench-live-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS, baseURL: url });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (err) => console.error("page error:", err.message));
  await page.goto("/sign-in");
  await page.getByLabel("Email or username").fill(p.email);
  await page.getByLabel("Password", { exact: true }).fill(p.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Main" }).waitFor({ timeout: 60_000 });
  // Caught up: the person's location is in the app's table.
  await arrivedAt(page, p.userId, { shape: "locations", id: p.locationId });
  return { context, page, profile };
}

async function oneBackend(databaseUrl: string | undefined): Promise<{ arrivals: Record<string, ShapeArrival>; liveShapeRequests: number }> {
  const svc = await benchService(databaseUrl);
  let app: Awaited<ReturnType<typeof openApp>> | undefined;
  try {
    const p = await signedIn(svc.url, "Live Screens");
    const typeId = uuidv7();
    const moveId = uuidv7();
    const templateThing = await rest<{ id: string }>(svc.url, p, "POST", `/api/v1/locations/${p.locationId}/things`, { name: "Template source" });
    const op = (name: string, args: Record<string, unknown>) => ({ id: uuidv7(), name, locationId: p.locationId, args, at: new Date().toISOString() });
    await send(svc.url, p, {
      shape: "types",
      id: typeId,
      ops: [op("type.create", { id: typeId, name: "Bench type" }), op("move.create", { id: moveId, name: "Bench move" })],
    });
    app = await openApp(svc.url, p);
    let liveShapeRequests = 0;
    app.page.on("request", (r) => {
      if (r.url().includes("/api/v1/sync/shape/") && /[?&]live=true/.test(r.url())) liveShapeRequests++;
    });
    const times = new Map<string, number[]>();
    for (let i = 0; i < SAMPLES; i++) {
      const changes = await changesOf(svc.url, p, i, { typeId, moveId, templateThing: templateThing.id });
      // Let the setup's own wakes settle, so each sample starts from a quiet device.
      await new Promise((r) => setTimeout(r, 1_500));
      for (const change of changes) {
        const waiting = arrivedAt(app.page, p.userId, change);
        await send(svc.url, p, change);
        const sent = Date.now();
        const ms = Math.max(0, (await waiting) - sent);
        const list = times.get(change.shape) ?? [];
        list.push(ms);
        times.set(change.shape, list);
      }
    }
    const arrivals: Record<string, ShapeArrival> = {};
    for (const [shape, xs] of times) arrivals[shape] = { p50Ms: percentile(xs, 50), p95Ms: percentile(xs, 95), maxMs: Math.max(...xs), samples: xs.length };
    return { arrivals, liveShapeRequests };
  } finally {
    if (app) {
      await app.context.close().catch(() => undefined);
      rmSync(app.profile, { recursive: true, force: true });
    }
    await svc.close();
  }
}

export async function benchLiveScreens(): Promise<LiveScreensResult> {
  buildClient();
  const backends: LiveScreensResult["backends"] = {};
  const pglite = await oneBackend(undefined);
  backends.pglite = pglite.arrivals;
  let liveShapeRequests = pglite.liveShapeRequests;
  let pg: Awaited<ReturnType<typeof benchDatabase>> | undefined;
  try {
    pg = await benchDatabase();
  } catch (err) {
    console.warn(`liveScreens: no PostgreSQL (${err instanceof Error ? err.message : String(err)}); PGlite only`);
  }
  if (pg) {
    try {
      const r = await oneBackend(pg.url);
      backends.postgres = r.arrivals;
      liveShapeRequests += r.liveShapeRequests;
    } finally {
      await pg.drop();
    }
  }
  return { backends, liveShapeRequests };
}
