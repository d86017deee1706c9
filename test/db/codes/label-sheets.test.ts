/**
 * Label sheets: an admin prints free codes as QR labels (a Typst PDF, A4, 3 by 8 a page). Checked
 * with pdftotext (poppler-utils), which reads back the codes and an Arabic location name.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { CODE_ALPHABET, formatCode } from "../../../shared/codes.js";
import { apiTest as test } from "../../support/fixtures.js";

const CODE = new RegExp(`^[${CODE_ALPHABET}]{6}$`);

// The read-back needs Debian's poppler-utils (apt-get install -y poppler-utils), as the e2e tests
// need Chromium: without it that one test is skipped and says so, unless PDF_TOOLS_REQUIRED is set
// (.ci/run sets it), where a missing tool is a failure.
const hasPoppler = existsSync("/usr/bin/pdftotext") && existsSync("/usr/bin/pdfinfo");
if (!hasPoppler) {
  if (process.env.PDF_TOOLS_REQUIRED) throw new Error("PDF_TOOLS_REQUIRED is set but pdftotext/pdfinfo are missing (apt-get install -y poppler-utils)");
  console.warn("\n*** label-sheet PDF read-back SKIPPED: no pdftotext (apt-get install -y poppler-utils) ***\n");
}

describe("label sheets", () => {
  test("count 1 to 200, 24 by default; every code new and free", async ({ loc, as }) => {
    const url = `/api/v1/locations/${loc}/label-sheets`;
    expect((await as.owner.post(url, { count: 0 })).status).toBe(400);
    expect((await as.owner.post(url, { count: 201 })).status).toBe(400);
    const one = await as.admin.post(url, { count: 1 });
    expect(one.status).toBe(201);
    expect(one.body).toMatchObject({ locationId: loc, size: 1, pdfUrl: `/api/v1/label-sheets/${one.body.id}/pdf` });
    expect(one.body.codes).toHaveLength(1);
    const full = await as.owner.post(url, { count: 200 });
    expect(full.body.codes).toHaveLength(200);
    expect(new Set(full.body.codes).size).toBe(200);
    expect(full.body.codes.every((c: string) => CODE.test(c))).toBe(true);
    expect((await as.owner.post(url, {})).body.codes).toHaveLength(24);
    for (const c of full.body.codes.slice(0, 5)) expect((await as.owner.get(`/api/v1/codes/${c}`)).status).toBe(404);
    const list = await as.admin.get(url);
    expect(list.body.items.map((s: { size: number }) => s.size)).toEqual([24, 200, 1]);
  });

  test("the codes shape carries printed labels, not the codes things and places have on their own rows", async ({ loc, as }) => {
    const sheet = await as.admin.post(`/api/v1/locations/${loc}/label-sheets`, { count: 2 });
    const thing = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Toolbox" });
    const res = await as.member.get("/api/v1/sync/shape/codes?offset=-1");
    expect(res.status).toBe(200);
    const shaped = (res.body as { value?: { code: string } }[]).flatMap((m) => (m.value ? [m.value.code] : []));
    expect(shaped).toEqual(expect.arrayContaining(sheet.body.codes));
    expect(shaped).not.toContain(thing.body.shortCode);
  });

  test("admins and owners print; members and viewers may not; an outsider cannot see the location", async ({ loc, as }) => {
    const url = `/api/v1/locations/${loc}/label-sheets`;
    for (const c of [as.member, as.viewer]) {
      expect((await c.post(url, { count: 1 })).status).toBe(403);
      expect((await c.get(url)).status).toBe(403);
    }
    expect((await as.outsider.post(url, { count: 1 })).status).toBe(404);
    expect((await as.outsider.get(url)).status).toBe(404);
    const sheet = await as.admin.post(url, { count: 1 });
    expect((await as.member.get(sheet.body.pdfUrl)).status).toBe(403);
    expect((await as.outsider.get(sheet.body.pdfUrl)).status).toBe(404);
  });

  test.skipIf(!hasPoppler)("the PDF reads back: every code as printed and the location's Arabic name", async ({ svc, loc, as }) => {
    const loc0 = (await as.owner.get(`/api/v1/locations/${loc}`)).body;
    const renamed = await as.owner.patch(`/api/v1/locations/${loc}`, { name: "بيت الجد", rowVersion: loc0.rowVersion });
    expect(renamed.status).toBe(200);
    const sheet = await as.admin.post(`/api/v1/locations/${loc}/label-sheets`, { count: 30 });
    const res = await fetch(`${svc.url}${sheet.body.pdfUrl}`, { headers: { cookie: [...as.admin.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await res.arrayBuffer());
    const file = join(mkdtempSync(join(tmpdir(), "labels-")), "sheet.pdf");
    writeFileSync(file, bytes);
    const text = execFileSync("pdftotext", ["-layout", file, "-"]).toString();
    for (const c of sheet.body.codes as string[]) expect(text).toContain(formatCode(c));
    expect(text).toContain("بيت الجد");
    const pages = execFileSync("pdfinfo", [file]).toString();
    expect(pages).toMatch(/Pages:\s+2/);
    expect(pages).toMatch(/Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/);
  });
});
