/**
 * Exports (issue "data-out", spec "Export", POST /exports/{id}/cancel, "Personal tokens" 5): every
 * route, roles, tokens refused, re-authentication for secret values, the zip read back, its
 * sha256 against the downloaded bytes, cancel mid-way leaving no file, expiry, limits.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import yauzl from "yauzl";
import { describe, expect } from "vitest";
import { EXPORT_MAX_ACTIVE, exportSchema } from "../../../shared/exports.js";
import { authSessions, exports } from "../../../server/db/schema/index.js";
import { blobStoreOf } from "../../../server/modules/files/blob-store.js";
import { exportDirOf } from "../../../server/modules/exports/worker.js";
import { exportWorker } from "../../support/export-zip.js";
import { apiTest } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import type { TestService } from "../../support/app.js";
import { expectError, PASSWORD } from "../../support/auth.js";
import { typeWithFields } from "../../support/secrets.js";

const hasPdfText = existsSync("/usr/bin/pdftotext");
if (!hasPdfText && process.env.PDF_TOOLS_REQUIRED) throw new Error("PDF_TOOLS_REQUIRED is set but pdftotext is missing (apt-get install -y poppler-utils)");
/** The PDF's text layer, without the bidi marks pdftotext wraps right-to-left runs in. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), "export-pdf-"));
  writeFileSync(join(dir, "r.pdf"), pdf);
  return execFileSync("pdftotext", ["-layout", join(dir, "r.pdf"), "-"], { encoding: "utf8" }).replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "");
}

const test = apiTest;

/** The raw bytes of a download (the test client reads text). */
async function download(svc: TestService, c: Client, id: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(`${svc.url}/api/v1/exports/${id}/file`, { headers: { cookie, origin: svc.config.publicUrl.origin } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/** Every entry of a zip, by name, as text or bytes. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error("no zip"));
      const out = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error("no stream"));
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on("end", () => resolve(out));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

const json = (files: Map<string, Buffer>, name: string) => JSON.parse(files.get(name)!.toString("utf8")) as Record<string, unknown>[];

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000".padEnd(60, "0"), "hex");

async function thing(c: Client, loc: string, body: Record<string, unknown>) {
  const res = await c.post(`/api/v1/locations/${loc}/things`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

async function start(c: Client, body: Record<string, unknown>) {
  return c.post("/api/v1/exports", { scope: "location", options: { readable: true }, ...body });
}

describe("export routes", () => {
  test("an admin exports a location: queued, built by the job, a zip whose sha256 matches the download", async ({ svc, loc, as }) => {
    const a = await thing(as.member, loc, { name: "Drill", quantity: 2 });
    await thing(as.member, loc, { name: 'Ladder, tall "red"' });
    const made = await start(as.admin, { locationId: loc });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const rec = exportSchema.parse(made.body);
    expect(rec).toMatchObject({ scope: "location", locationId: loc, status: "queued", includesSecrets: false, progress: { done: 0 } });
    expect(rec.options).toMatchObject({ readable: true, pdf: false, locale: "en", digits: "western" });
    expect(rec.fileUrl).toBeUndefined();
    expect(await exportWorker(svc).drain()).toBe(1);
    const done = exportSchema.parse((await as.admin.get(`/api/v1/exports/${rec.id}`)).body);
    expect(done.status).toBe("succeeded");
    expect(done.progress.done).toBe(done.progress.total);
    expect(done.progress.total).toBeGreaterThan(2);
    expect(done.fileUrl).toBe(`/api/v1/exports/${rec.id}/file`);
    expect(Date.parse(done.expiresAt!) - Date.parse(done.finishedAt!)).toBe(7 * 86_400_000);
    const file = await download(svc, as.admin, rec.id);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/zip");
    expect(file.bytes.subarray(0, 4).toString("hex")).toBe("504b0304");
    expect(file.bytes.length).toBe(done.bytes);
    expect(createHash("sha256").update(file.bytes).digest("hex")).toBe(done.sha256);
    const files = await unzip(file.bytes);
    const manifest = JSON.parse(files.get("manifest.json")!.toString());
    expect(manifest).toMatchObject({ version: 1, scope: "location", locationIds: [loc], createdAt: rec.createdAt });
    const things = json(files, "records/things.json");
    expect(things.map((t) => t.name).sort()).toEqual(["Drill", 'Ladder, tall "red"']);
    expect(manifest.counts.things).toBe(2);
    expect(things.find((t) => t.id === a.id)).toMatchObject({ location_id: loc, quantity: 2 });
    expect(json(files, "records/places.json").length).toBeGreaterThan(0);
    expect(json(files, "records/types.json").length).toBeGreaterThan(0);
    expect(files.has("records/history_entries.json")).toBe(false);
    const csv = files.get("things.csv")!.toString();
    expect(csv.split("\r\n")[0]).toBe("id,location_id,name,quantity,place,type,lifecycle,condition,brand,model,serial,fields");
    expect(csv).toContain('"Ladder, tall ""red"""');
    expect(files.get("places.csv")!.toString()).toContain("id,location_id,name,path,is_unplaced");
    // Another person, even the location's owner, neither sees nor downloads it.
    expect((await as.owner.get(`/api/v1/exports/${rec.id}`)).status).toBe(404);
    expect((await download(svc, as.owner, rec.id)).status).toBe(404);
    expect((await as.owner.get("/api/v1/exports")).body.items.map((e: { id: string }) => e.id)).not.toContain(rec.id);
  });

  test("options: history, ended, trashed and photos go in only when asked; photos under files/", async ({ svc, loc, as }) => {
    const up = await as.member.request("POST", `/api/v1/files?locationId=${loc}`, undefined, {});
    expect(up.status).not.toBe(201); // no bytes: refused; the real upload is below
    const cookie = [...as.member.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const photo = await fetch(`${svc.url}/api/v1/files?locationId=${loc}`, {
      method: "POST",
      headers: { cookie, origin: svc.config.publicUrl.origin, "content-type": "application/octet-stream" },
      body: PNG,
    });
    const fileId = ((await photo.json()) as { id: string }).id;
    const gone = await thing(as.member, loc, { name: "Old kettle" });
    expect((await as.member.delete(`/api/v1/things/${gone.id}`, { rowVersion: 1 })).status).toBe(200);
    const w = exportWorker(svc);
    const plain = exportSchema.parse((await start(as.owner, { locationId: loc })).body);
    const all = exportSchema.parse((await start(as.owner, { locationId: loc, options: { history: true, trashed: true, ended: true, readable: false } })).body);
    await w.drain();
    const a = await unzip((await download(svc, as.owner, plain.id)).bytes);
    const b = await unzip((await download(svc, as.owner, all.id)).bytes);
    expect(json(a, "records/things.json").map((t) => t.id)).not.toContain(gone.id);
    expect(json(b, "records/things.json").map((t) => t.id)).toContain(gone.id);
    expect(a.has("records/history_entries.json")).toBe(false);
    expect(json(b, "records/history_entries.json").length).toBeGreaterThan(0);
    expect(b.has("things.csv")).toBe(false);
    expect(a.get(`files/${fileId}.png`)).toEqual(PNG);
    expect(JSON.parse(a.get("manifest.json")!.toString()).counts.photos).toBe(1);
  });

  test("a photo whose blob is gone from the store: the export still finishes, without that file, counted as missing", async ({ svc }) => {
    // A location and bytes of its own: no other test's photo shares the blob removed here.
    const c = await svc.signedIn("Mia Missing");
    const loc = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const bytes = Buffer.concat([PNG, randomBytes(16)]);
    const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const up = await fetch(`${svc.url}/api/v1/files?locationId=${loc}`, {
      method: "POST",
      headers: { cookie, origin: svc.config.publicUrl.origin, "content-type": "application/octet-stream" },
      body: bytes,
    });
    expect(up.status).toBe(201);
    const fileId = ((await up.json()) as { id: string }).id;
    await blobStoreOf(svc.config).remove(createHash("sha256").update(bytes).digest("hex"));
    const w = exportWorker(svc);
    const made = exportSchema.parse((await start(c, { locationId: loc })).body);
    // Before, the zip waited forever on the entry whose bytes never came: bounded here, not by the test's timeout.
    const drained = await Promise.race([w.drain(), new Promise<"hung">((r) => setTimeout(() => r("hung"), 20_000))]);
    expect(drained).toBe(1);
    const done = exportSchema.parse((await c.get(`/api/v1/exports/${made.id}`)).body);
    expect(done.status).toBe("succeeded");
    const files = await unzip((await download(svc, c, made.id)).bytes);
    expect([...files.keys()].filter((n) => n.startsWith("files/"))).toEqual([]);
    expect(json(files, "records/files.json").map((f) => f.id)).toEqual([fileId]);
    expect(JSON.parse(files.get("manifest.json")!.toString())).toMatchObject({ missingFiles: 1, counts: { photos: 0 } });
  });

  test("roles: owners and admins export a location; members, viewers and outsiders do not", async ({ loc, as }) => {
    expectError(await start(as.member, { locationId: loc }), 403, "forbidden");
    expectError(await start(as.viewer, { locationId: loc }), 403, "forbidden");
    expectError(await start(as.outsider, { locationId: loc }), 404, "not_found");
    expectError(await start(as.admin, { locationId: uuidv7() }), 404, "not_found");
  });

  test("the account scope: its owner exports every location of the account", async ({ svc, as }) => {
    const c = await svc.signedIn("Acct Owner");
    const made = await c.post("/api/v1/exports", { scope: "account" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.locationId).toBeUndefined();
    await exportWorker(svc).drain();
    const files = await unzip((await download(svc, c, made.body.id)).bytes);
    expect(json(files, "records/locations.json").length).toBe(1);
    expectError(await as.admin.post("/api/v1/exports", { scope: "account", locationId: uuidv7() }), 400, "validation_failed");
    expectError(await as.admin.post("/api/v1/exports", { scope: "location" }), 400, "validation_failed");
  });

  test("bad input: unknown options, locale or digits are refused and nothing is queued", async ({ svc, loc, as }) => {
    const before = (await svc.database.db.select().from(exports)).length;
    expectError(await start(as.owner, { locationId: loc, options: { everything: true } }), 400, "validation_failed");
    expectError(await start(as.owner, { locationId: loc, locale: "fr" }), 400, "validation_failed");
    expectError(await start(as.owner, { locationId: loc, digits: "roman" }), 400, "validation_failed");
    expect((await svc.database.db.select().from(exports)).length).toBe(before);
  });

  test("pdf: the inventory report goes in as report.pdf, in the export's language, as the requester sees it", async ({ svc, loc, as }) => {
    await thing(as.owner, loc, { name: "مثقاب كهربائي" });
    await thing(as.owner, loc, { name: "Ladder" });
    const made = await start(as.owner, { locationId: loc, options: { pdf: true, readable: false }, locale: "ar", digits: "eastern" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await exportWorker(svc).drain();
    const rec = (await as.owner.get(`/api/v1/exports/${made.body.id}`)).body;
    expect(rec.status).toBe("succeeded");
    expect(rec.progress.done).toBe(rec.progress.total);
    const files = await unzip((await download(svc, as.owner, made.body.id)).bytes);
    const pdf = files.get("report.pdf")!;
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    if (hasPdfText) {
      const text = pdfText(pdf);
      expect(text).toContain("مثقاب كهربائي");
      expect(text).toContain("Ladder");
    }
    // Without the option there is no report.
    const plain = await start(as.owner, { locationId: loc, options: { readable: false } });
    await exportWorker(svc).drain();
    expect((await unzip((await download(svc, as.owner, plain.body.id)).bytes)).has("report.pdf")).toBe(false);
  });

  test(`at most ${EXPORT_MAX_ACTIVE} unfinished exports per person; one more is 429`, async ({ svc, loc }) => {
    const c = await svc.signedIn();
    const own = (await c.get("/api/v1/me")).body.locations[0].id as string;
    for (let i = 0; i < EXPORT_MAX_ACTIVE; i++) expect((await start(c, { locationId: own })).status).toBe(201);
    expectError(await start(c, { locationId: own }), 429, "rate_limited");
    const list = (await c.get("/api/v1/exports")).body.items as { createdAt: string }[];
    expect(list).toHaveLength(EXPORT_MAX_ACTIVE);
    expect([...list].sort((x, y) => y.createdAt.localeCompare(x.createdAt))).toEqual(list);
    await exportWorker(svc).drain();
    expect((await start(c, { locationId: own })).status).toBe(201);
    void loc;
  });
});

describe("secret values and tokens", () => {
  test("includesSecrets: the owner after re-authentication only; the values come out decrypted", async ({ svc, loc, as }) => {
    const router = await typeWithFields(svc.database.db, loc, "Router", [
      { key: "ssid", kind: "text" },
      { key: "wifi_password", kind: "text", secret: true },
    ]);
    const t = await thing(as.owner, loc, { name: "Router", typeId: router.typeId, fields: { ssid: "home", wifi_password: "hunter2-secret" } });
    expectError(await start(as.admin, { locationId: loc, includesSecrets: true }), 403, "forbidden");
    // The owner's session is older than a few minutes: the password again first.
    await svc.database.db
      .update(authSessions)
      .set({ createdAt: new Date(Date.now() - 3600_000), reauthenticatedAt: null })
      .where(eq(authSessions.userId, as.owner.userId));
    expectError(await start(as.owner, { locationId: loc, includesSecrets: true }), 403, "reauth_required");
    expect((await as.owner.post("/api/v1/me/reauthenticate", { password: PASSWORD })).status).toBe(200);
    const made = await start(as.owner, { locationId: loc, includesSecrets: true });
    expect(made.status).toBe(201);
    expect(made.body.includesSecrets).toBe(true);
    const plain = await start(as.owner, { locationId: loc });
    await exportWorker(svc).drain();
    const withSecrets = await unzip((await download(svc, as.owner, made.body.id)).bytes);
    expect(json(withSecrets, "records/secret_values.json")).toContainEqual(expect.objectContaining({ thingId: t.id, value: "hunter2-secret" }));
    const without = await download(svc, as.owner, plain.body.id);
    expect(without.bytes.toString("latin1")).not.toContain("hunter2-secret");
    expect((await unzip(without.bytes)).has("records/secret_values.json")).toBe(false);
  });

  test("a personal token reaches no export route", async ({ svc, loc, as }) => {
    const tok = await as.admin.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [loc] });
    expect(tok.status).toBe(201);
    const made = exportSchema.parse((await start(as.admin, { locationId: loc })).body);
    const c = svc.client();
    const auth = { authorization: `Bearer ${tok.body.secret}` };
    for (const [m, p] of [
      ["POST", "/api/v1/exports"],
      ["GET", "/api/v1/exports"],
      ["GET", `/api/v1/exports/${made.id}`],
      ["POST", `/api/v1/exports/${made.id}/cancel`],
      ["GET", `/api/v1/exports/${made.id}/file`],
    ] as const)
      expect((await c.request(m, p, m === "POST" ? { scope: "location", locationId: loc } : undefined, auth)).status, `${m} ${p}`).toBe(403);
    expect((await as.admin.get(`/api/v1/exports/${made.id}`)).body.status).toBe("queued");
  });
});

describe("cancel and expiry", () => {
  test("cancel while queued: cancelled, never built; twice is the same answer; a finished one is 409", async ({ svc, loc, as }) => {
    const made = exportSchema.parse((await start(as.admin, { locationId: loc })).body);
    const res = await as.admin.post(`/api/v1/exports/${made.id}/cancel`);
    expect(res.status).toBe(200);
    expect(exportSchema.parse(res.body)).toMatchObject({ id: made.id, status: "cancelled" });
    expect((await as.admin.post(`/api/v1/exports/${made.id}/cancel`)).body.status).toBe("cancelled");
    expect((await as.owner.post(`/api/v1/exports/${made.id}/cancel`)).status).toBe(404);
    const other = exportSchema.parse((await start(as.admin, { locationId: loc })).body);
    await exportWorker(svc).drain();
    expect((await as.admin.get(`/api/v1/exports/${made.id}`)).body.status).toBe("cancelled");
    expect((await as.admin.get(`/api/v1/exports/${other.id}`)).body.status).toBe("succeeded");
    expect(existsSync(`${exportDirOf(svc.config.dataDir)}/${made.id}.zip`)).toBe(false);
    expectError(await as.admin.post(`/api/v1/exports/${other.id}/cancel`), 409, "conflict");
    expectError(await as.admin.get(`/api/v1/exports/${made.id}/file`), 409, "conflict");
  });

  test("cancel mid-way: the worker notices at its next page and leaves no file, partial or whole", async ({ svc, loc, as }) => {
    for (let i = 0; i < 3; i++) await thing(as.member, loc, { name: `Box ${i}` });
    const made = exportSchema.parse((await start(as.admin, { locationId: loc })).body);
    const dir = exportDirOf(svc.config.dataDir);
    let beats = 0;
    let sawPartial = false;
    const w = exportWorker(svc, {
      onBeat: async (id) => {
        beats += 1;
        if (beats === 3) {
          sawPartial = readdirSync(dir).includes(`${id}.zip.part`);
          expect((await as.admin.post(`/api/v1/exports/${id}/cancel`)).body.status).toBe("cancelled");
        }
      },
    });
    await w.drain();
    // It stopped at the page where the cancel came, instead of building the rest and throwing it away.
    expect(beats).toBe(3);
    expect(sawPartial).toBe(true);
    expect(readdirSync(dir).filter((f) => f.startsWith(made.id))).toEqual([]);
    const rec = exportSchema.parse((await as.admin.get(`/api/v1/exports/${made.id}`)).body);
    expect(rec.status).toBe("cancelled");
    expect(rec.sha256).toBeUndefined();
  });

  test("after seven days the job deletes the file; the export says expired and the download is 410", async ({ svc, loc, as }) => {
    const made = exportSchema.parse((await start(as.admin, { locationId: loc })).body);
    const w = exportWorker(svc);
    await w.drain();
    const file = `${exportDirOf(svc.config.dataDir)}/${made.id}.zip`;
    expect(existsSync(file)).toBe(true);
    await w.drain();
    expect(existsSync(file)).toBe(true); // not yet
    await svc.database.db
      .update(exports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(exports.id, made.id));
    await w.drain();
    expect(existsSync(file)).toBe(false);
    expect((await as.admin.get(`/api/v1/exports/${made.id}`)).body.status).toBe("expired");
    expectError(await as.admin.get(`/api/v1/exports/${made.id}/file`), 410, "gone");
  });
});
