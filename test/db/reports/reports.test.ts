/**
 * Inventory reports (server/modules/reports): the request's limits and roles, the leased job built
 * by the worker into a Typst PDF read back with pdftotext (English, and Arabic with eastern digits),
 * money and secret fields, the mail when done, and expiry deleting the file.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { v7 as uuidv7 } from "uuid";
import sharp from "sharp";
import { describe, expect } from "vitest";
import { mailTest as test } from "../../support/fixtures.js";
import { REPORT_MAX_IDS, REPORT_MAX_THING_IDS, REPORT_TTL_MS } from "../../../shared/reports.js";
import { rows, sql } from "../../../server/db/client.js";
import { blobStoreOf } from "../../../server/modules/files/blob-store.js";
import { createMailer } from "../../../server/mail/mailer.js";
import { MAX_ATTEMPTS } from "../../../server/modules/reports/queue.js";
import { startReportWorker, type ReportWorker } from "../../../server/modules/reports/worker.js";
import type { HttpClient, TestService } from "../../support/app.js";
import { locationWithRoles } from "../../support/members.js";
import type { TestSmtp } from "../../support/smtp.js";

const hasPoppler = existsSync("/usr/bin/pdftotext") && existsSync("/usr/bin/pdfimages");
if (!hasPoppler) {
  if (process.env.PDF_TOOLS_REQUIRED) throw new Error("PDF_TOOLS_REQUIRED is set but pdftotext is missing (apt-get install -y poppler-utils)");
  console.warn("\n*** report PDF read-back SKIPPED: no pdftotext (apt-get install -y poppler-utils) ***\n");
}

let smtp: TestSmtp;
let svc: TestService;
let loc: string;
let as: Awaited<ReturnType<typeof locationWithRoles>>["as"];
let worker: ReportWorker;
/** The worker's clock, moved forward to see reports expire. */
let clock = () => new Date();

test.beforeAll(async ({ svc: service, smtp: mail }) => {
  smtp = mail;
  svc = service;
  ({ locationId: loc, as } = await locationWithRoles(svc));
  const logger = pino({ level: "silent" });
  worker = startReportWorker(
    { db: svc.database.db, config: svc.config, store: blobStoreOf(svc.config), mailer: createMailer(svc.config, logger), logger, now: () => clock() },
    { timer: false },
  );
});
test.afterAll(async () => {
  await worker?.stop();
});

const ok = async <T = any>(p: Promise<{ status: number; body: T }>, status = 201): Promise<T> => {
  const res = await p;
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};
const place = async (name: string, parentId?: string) =>
  (await ok<{ id: string }>(as.member.post(`/api/v1/locations/${loc}/places`, { name, ...(parentId ? { parentId } : {}) }))).id;
const thing = async (body: Record<string, unknown>) => ok<{ id: string; shortCode: string }>(as.member.post(`/api/v1/locations/${loc}/things`, body));
const ask = (c: HttpClient, body: Record<string, unknown> = {}) => c.post("/api/v1/reports/inventory", { scope: { locationId: loc }, ...body });

/** Asks, runs the worker, and answers the finished job and its PDF. */
async function built(c: HttpClient, body: Record<string, unknown> = {}): Promise<{ id: string; pdf: Buffer; state: any }> {
  const job = await ok<{ id: string; status: string; expiresAt: string }>(ask(c, body), 202);
  expect(job.status).toBe("queued");
  expect((await c.get(`/api/v1/reports/${job.id}`)).body.status).toBe("queued");
  await worker.drain();
  const state = await ok(c.get(`/api/v1/reports/${job.id}`), 200);
  expect(state, JSON.stringify(state)).toMatchObject({ id: job.id, status: "done", fileUrl: `/api/v1/reports/${job.id}/file` });
  const pdf = await download(c, job.id);
  expect(pdf.status).toBe(200);
  expect(pdf.type).toBe("application/pdf");
  expect(pdf.disposition).toMatch(/^attachment; filename="inventory-report-.+\.pdf"$/);
  expect(pdf.body.subarray(0, 5).toString()).toBe("%PDF-");
  expect(state.bytes).toBe(pdf.body.length);
  return { id: job.id, pdf: pdf.body, state };
}

async function download(c: HttpClient, id: string) {
  const res = await fetch(`${svc.url}/api/v1/reports/${id}/file`, { headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    disposition: res.headers.get("content-disposition"),
    body: Buffer.from(await res.arrayBuffer()),
  };
}

function pdfTool(tool: string, pdf: Buffer, args: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "report-pdf-"));
  writeFileSync(join(dir, "r.pdf"), pdf);
  return execFileSync(tool, [...args, join(dir, "r.pdf"), ...(tool === "pdftotext" ? ["-"] : [])], { encoding: "utf8" });
}
/** The text, without the bidi embedding marks pdftotext wraps right-to-left runs in (the letters stay in logical order). */
const pdfText = (pdf: Buffer) => pdfTool("pdftotext", pdf, ["-layout"]).replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "");

describe("asking for a report", () => {
  test("every filter limit at its bound is accepted, one past it is 400 and queues nothing", async () => {
    const shelf = await place("Limit shelf");
    const t = await thing({ name: "Limit thing", placeId: shelf });
    const types = (await as.member.get(`/api/v1/locations/${loc}/types`)).body.items as { id: string }[];
    const tag = await ok<{ id: string }>(as.admin.post(`/api/v1/locations/${loc}/tags`, { name: "limit-tag" }));
    const cases: [string, string, number][] = [
      ["placeIds", shelf, REPORT_MAX_IDS],
      ["typeIds", types[0]!.id, REPORT_MAX_IDS],
      ["tagIds", tag.id, REPORT_MAX_IDS],
      ["thingIds", t.id, REPORT_MAX_THING_IDS],
    ];
    expect(REPORT_MAX_IDS).toBe(100);
    expect(REPORT_MAX_THING_IDS).toBe(2000);
    const count = async () => (await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM report_jobs`))[0]!.n;
    for (const [key, id, max] of cases) {
      expect((await ask(as.viewer, { filters: { [key]: Array(max).fill(id) } })).status, key).toBe(202);
      const before = await count();
      const res = await ask(as.viewer, { filters: { [key]: Array(max + 1).fill(id) } });
      expect(res.status, key).toBe(400);
      expect(await count()).toBe(before);
    }
  });

  test("bad bodies are 400: unknown locale, digits, keys, a missing scope", async () => {
    for (const body of [{ locale: "fr" }, { digits: "roman" }, { include: { secrets: true } }, { filters: { placeIds: ["nope"] } }, { extra: 1 }])
      expect((await ask(as.member, body)).status, JSON.stringify(body)).toBe(400);
    expect((await as.member.post("/api/v1/reports/inventory", {})).status).toBe(400);
  });

  test("roles: a viewer may ask; an outsider gets 404, for the location and for another's report; a report is its requester's alone", async () => {
    const job = await ok<{ id: string }>(ask(as.viewer), 202);
    expect((await ask(as.outsider)).status).toBe(404);
    for (const c of [as.outsider, as.admin, as.owner]) {
      expect((await c.get(`/api/v1/reports/${job.id}`)).status).toBe(404);
      expect((await download(c, job.id)).status).toBe(404);
    }
    // A filter naming another location's place is 404 as well, and nothing is queued.
    const other = (await as.outsider.get("/api/v1/me")).body.locations[0].id as string;
    const theirs = await ok<{ id: string }>(as.outsider.post(`/api/v1/locations/${other}/places`, { name: "Their shed" }));
    expect((await ask(as.member, { filters: { placeIds: [theirs.id] } })).status).toBe(404);
    // Not ready yet: 409.
    expect((await download(as.viewer, job.id)).status).toBe(409);
    await worker.drain();
  });

  test("personal tokens never reach the report routes", async () => {
    const token = await ok<{ secret: string }>(as.member.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [loc] }));
    const c = svc.client();
    const auth = { authorization: `Bearer ${token.secret}` };
    expect((await c.request("POST", "/api/v1/reports/inventory", { scope: { locationId: loc } }, auth)).status).toBe(403);
    const mine = await ok<{ id: string }>(ask(as.member), 202);
    expect((await c.request("GET", `/api/v1/reports/${mine.id}`, undefined, auth)).status).toBe(403);
    expect((await c.request("GET", `/api/v1/reports/${mine.id}/file`, undefined, auth)).status).toBe(403);
    await worker.drain();
  });
});

describe("the PDF", () => {
  test("things grouped by place path, containers in the path; ended and trashed only when asked; place filter", async () => {
    const garage = await place("Garage");
    const shelf = await place("Top shelf", garage);
    const attic = await place("Attic");
    const toolbox = await thing({ name: "Red toolbox", placeId: shelf, isContainer: true });
    await thing({ name: "Claw hammer", containerId: toolbox.id, quantity: "2" });
    await thing({ name: "Spirit level", placeId: shelf });
    const old = await thing({ name: "Broken fan", placeId: attic });
    await ok(as.member.patch(`/api/v1/things/${old.id}`, { lifecycle: "ended", rowVersion: 1 }), 200);
    const text = pdfText((await built(as.member, { filters: { placeIds: [garage, attic] } })).pdf);
    if (!hasPoppler) return;
    const header = text.indexOf("Garage › Top shelf › Red toolbox");
    expect(header).toBeGreaterThan(-1);
    expect(text.indexOf("Claw hammer")).toBeGreaterThan(header);
    const shelfHeader = text.search(/Garage › Top shelf\s*\n/);
    expect(shelfHeader).toBeGreaterThan(-1);
    expect(text.slice(shelfHeader)).toContain("Spirit level");
    expect(text).toContain("Inventory report");
    expect(text).not.toContain("Broken fan");
    expect(text).not.toContain("Limit thing");
    expect(text).toMatch(/Things\s+3/);
    expect(text).toMatch(/Total quantity\s+4/);
    const all = pdfText((await built(as.member, { filters: { placeIds: [attic], includeEnded: true } })).pdf);
    expect(all).toContain("Broken fan (ended)");
    expect(all).not.toContain("Claw hammer");
  });

  test("photos and QR codes only when asked", async () => {
    const room = await place("Photo room");
    const t = await thing({ name: "Camera", placeId: room });
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c33" } })
      .png()
      .toBuffer();
    const up = await fetch(`${svc.url}/api/v1/files?locationId=${loc}`, {
      method: "POST",
      headers: { origin: svc.config.publicUrl.origin, cookie: [...as.member.cookies].map(([k, v]) => `${k}=${v}`).join("; "), "content-type": "image/png" },
      body: new Uint8Array(png),
    });
    expect(up.status).toBe(201);
    const fileId = ((await up.json()) as { id: string }).id;
    await svc.database.db.execute(sql`UPDATE things SET cover_file_id = ${fileId} WHERE id = ${t.id}`);
    const plain = await built(as.member, { filters: { thingIds: [t.id] } });
    const rich = await built(as.member, { filters: { thingIds: [t.id] }, include: { photos: true, qr: true } });
    if (!hasPoppler) return;
    const images = (pdf: Buffer) =>
      pdfTool("pdfimages", pdf, ["-list"])
        .split("\n")
        .filter((l) => /^\s*\d+\s+\d+\s+image/.test(l)).length;
    expect(images(plain.pdf)).toBe(0);
    expect(images(rich.pdf)).toBe(1);
    // The QR code is vector drawing: the rich PDF is the larger by more than the photo alone.
    expect(rich.pdf.length).toBeGreaterThan(plain.pdf.length);
  });

  test("money only for readers who may see it and when asked; secret values never", async () => {
    await svc.database.db.execute(sql`UPDATE locations SET viewers_see_money = false WHERE id = ${loc}`);
    const type = await ok<{ id: string }>(as.admin.post(`/api/v1/locations/${loc}/types`, { name: "Appliance" }));
    for (const f of [
      { key: "price", label: "Price paid", kind: "money" },
      { key: "voltage", label: "Voltage", kind: "number", unit: "V" },
      { key: "pin", label: "Door PIN", kind: "text", secret: true },
    ])
      await ok(as.owner.post(`/api/v1/types/${type.id}/fields`, f));
    const room = await place("Kitchen");
    const fridge = await thing({
      name: "Fridge",
      placeId: room,
      typeId: type.id,
      fields: { price: { amount: "499.50", currency: "EUR" }, voltage: 230, pin: "SECRET-7731" },
    });
    // A value under the secret key in the thing's own fields (as a field made secret after values were
    // entered would leave it, were the conversion to miss one) is never printed either.
    await svc.database.db.execute(sql`UPDATE things SET fields = fields || ${JSON.stringify({ pin: "LEAK-4412" })}::jsonb WHERE id = ${fridge.id}`);
    const body = { filters: { thingIds: [fridge.id] }, include: { money: true } };
    const viewer = pdfText((await built(as.viewer, body)).pdf);
    const owner = pdfText((await built(as.owner, body)).pdf);
    const ownerNoMoney = pdfText((await built(as.owner, { filters: body.filters })).pdf);
    if (!hasPoppler) return;
    for (const text of [viewer, owner, ownerNoMoney]) {
      expect(text).toContain("Fridge");
      expect(text).toContain("Voltage: 230");
      expect(text).not.toContain("SECRET-7731");
      expect(text).not.toContain("LEAK-4412");
      expect(text).not.toContain("Door PIN");
    }
    expect(owner).toContain("Price paid: 499.5 EUR");
    expect(owner).toMatch(/Total value\s+499\.50 EUR/);
    for (const text of [viewer, ownerNoMoney]) {
      expect(text).not.toContain("499");
      expect(text).not.toContain("Total value");
    }
  });

  test("Arabic: names shaped in logical order, Arabic labels, eastern digits; page images in docs/", async () => {
    await svc.database.db.execute(sql`UPDATE locations SET name = ${"بيت الزيتون"} WHERE id = ${loc}`);
    const room = await place("غرفة المعيشة");
    await thing({ name: "مصباح المكتب", placeId: room, quantity: "3" });
    await thing({ name: "كرسي خشبي", placeId: room, quantity: "12" });
    await thing({ name: "شاحن USB-C أبيض", placeId: room });
    const { pdf } = await built(as.member, { filters: { placeIds: [room] }, locale: "ar", digits: "eastern", include: { qr: true } });
    if (!hasPoppler) return;
    const text = pdfText(pdf);
    for (const s of ["تقرير الجرد", "بيت الزيتون", "غرفة المعيشة", "مصباح المكتب", "كرسي خشبي", "الكمية", "١٢", "٣"]) expect(text, s).toContain(s);
    // A name mixing Arabic and Latin comes back in logical order (pdftotext moves the spaces at the direction changes).
    expect(text.replace(/\s+/g, "")).toContain("شاحنUSB-Cأبيض");
    // Totals: three things, sixteen in all, in eastern digits; no western digit printed anywhere but the year-free text.
    const line = (label: string) => text.split("\n").find((l) => l.includes(label)) ?? "";
    expect(line("الأغراض").replace("الأغراض", "").trim()).toBe("٣");
    expect(line("مجموع الكميات").replace("مجموع الكميات", "").trim()).toBe("١٦");
    // Every number is in eastern digits; only the things' short codes (labels to scan) keep theirs.
    expect(text.replace(/\b[0-9A-Z]{3}-[0-9A-Z]{3}\b/g, "")).not.toMatch(/[0-9]/);
    const western = pdfText((await built(as.member, { filters: { placeIds: [room] }, locale: "ar" })).pdf);
    expect(western).toContain("12");
    if (process.env.REPORT_PNG_DIR && existsSync("/usr/bin/pdftoppm")) {
      const dir = mkdtempSync(join(tmpdir(), "report-png-"));
      writeFileSync(join(dir, "r.pdf"), pdf);
      execFileSync("pdftoppm", [
        "-png",
        "-r",
        "80",
        "-f",
        "1",
        "-l",
        "1",
        "-singlefile",
        join(dir, "r.pdf"),
        join(process.env.REPORT_PNG_DIR, "report-arabic"),
      ]);
    }
  });
});

describe("after the report is made", () => {
  test("email: true mails the requester the link when it is done", async () => {
    const { id } = await built(as.viewer, { email: true, filters: { thingIds: [] } });
    const mail = await smtp.waitFor(as.viewer.email);
    expect(mail.text).toContain(`${svc.url}/l/${loc}/report?id=${id}`);
    expect(mail.text).toContain(`${svc.url}/api/v1/reports/${id}/file`);
    expect(await smtp.anyFor(as.member.email, 300)).toBe(false);
  });

  test("expiry: the job deletes the file; the report then answers without a file, and the download is 410", async () => {
    const { id } = await built(as.member);
    expect(await worker.expire()).toBe(0);
    clock = () => new Date(Date.now() + REPORT_TTL_MS + 60_000);
    try {
      expect(await worker.expire()).toBeGreaterThanOrEqual(1);
    } finally {
      clock = () => new Date();
    }
    const [row] = await rows<{ gone: boolean }>(svc.database.db, sql`SELECT file IS NULL AS gone FROM report_jobs WHERE id = ${id}`);
    expect(row!.gone).toBe(true);
    const state = await ok(as.member.get(`/api/v1/reports/${id}`), 200);
    expect(state.status).toBe("done");
    expect(state.fileUrl).toBeUndefined();
    expect((await download(as.member, id)).status).toBe(410);
  });

  test("a requester who left the location before the job ran: the job fails (not_found) and nothing is kept", async () => {
    const leaver = await svc.signedIn("Lena Leaver");
    await svc.database.db.execute(sql`INSERT INTO memberships (id, location_id, user_id, role) VALUES (${uuidv7()}, ${loc}, ${leaver.userId}, 'viewer')`);
    const job = await ok<{ id: string }>(ask(leaver), 202);
    await svc.database.db.execute(sql`UPDATE memberships SET deleted_at = now() WHERE user_id = ${leaver.userId} AND location_id = ${loc}`);
    await worker.drain();
    const [row] = await rows<{ status: string; error: string; gone: boolean }>(
      svc.database.db,
      sql`SELECT status, error, file IS NULL AS gone FROM report_jobs WHERE id = ${job.id}`,
    );
    expect(row).toEqual({ status: "failed", error: "not_found", gone: true });
    expect((await leaver.get(`/api/v1/reports/${job.id}`)).status).toBe(404);
  });

  test("the lease: a job whose worker died is claimed again; one that used up its attempts fails", async () => {
    const db = svc.database.db;
    const job = await ok<{ id: string }>(ask(as.member), 202);
    const past = new Date(Date.now() - 60_000).toISOString();
    await db.execute(sql`UPDATE report_jobs SET status = 'running', attempt = 1, lease_until = ${past}::timestamptz WHERE id = ${job.id}`);
    expect(await worker.drain()).toBe(1);
    expect((await as.member.get(`/api/v1/reports/${job.id}`)).body.status).toBe("done");
    const dead = await ok<{ id: string }>(ask(as.member), 202);
    await db.execute(sql`UPDATE report_jobs SET status = 'running', attempt = ${MAX_ATTEMPTS}, lease_until = ${past}::timestamptz WHERE id = ${dead.id}`);
    expect(await worker.drain()).toBe(0);
    expect((await as.member.get(`/api/v1/reports/${dead.id}`)).body).toMatchObject({ status: "failed", error: "worker_lost" });
    // A live lease is left alone.
    const busy = await ok<{ id: string }>(ask(as.member), 202);
    const later = new Date(Date.now() + 600_000).toISOString();
    await db.execute(sql`UPDATE report_jobs SET status = 'running', attempt = 1, lease_until = ${later}::timestamptz WHERE id = ${busy.id}`);
    expect(await worker.drain()).toBe(0);
    expect((await as.member.get(`/api/v1/reports/${busy.id}`)).body.status).toBe("running");
  });
});
