/**
 * A move's printed pages (server/modules/moves/print*.ts): box labels and packing lists as Typst
 * PDFs, read back with pdftotext (poppler-utils) in English and in Arabic.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { formatCode } from "../../../shared/codes.js";
import { moveBoxes, moves } from "../../../server/db/schema/index.js";
import { apiTest } from "../../support/fixtures.js";
import type { HttpClient } from "../../support/app.js";

const hasPoppler = existsSync("/usr/bin/pdftotext");
if (!hasPoppler) {
  if (process.env.PDF_TOOLS_REQUIRED) throw new Error("PDF_TOOLS_REQUIRED is set but pdftotext is missing (apt-get install -y poppler-utils)");
  console.warn("\n*** move PDF read-back SKIPPED: no pdftotext (apt-get install -y poppler-utils) ***\n");
}

const make = async (c: HttpClient, loc: string, body: Record<string, unknown>) => {
  const res = await c.post(`/api/v1/locations/${loc}/things`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; shortCode: string };
};

/** A move of two boxes: box 1 holds a lamp and a tin holding screws; box 2 (Arabic name) is empty. */
const test = apiTest.extend("move", { scope: "file" }, async ({ svc, loc, as }) => {
  const one = await make(as.member, loc, { name: "Kitchen box", isContainer: true });
  const lamp = await make(as.member, loc, { name: "Desk lamp", containerId: one.id });
  const tin = await make(as.member, loc, { name: "Biscuit tin", isContainer: true, containerId: one.id });
  await make(as.member, loc, { name: "Wood screws", quantity: "40", containerId: tin.id });
  const two = await make(as.member, loc, { name: "صندوق الكتب", isContainer: true });
  const id = uuidv7();
  const db = svc.database.db;
  await db.insert(moves).values({ id, locationId: loc, name: "Flat move", toLocationName: "New flat" });
  await db.insert(moveBoxes).values([
    { id: uuidv7(), locationId: loc, moveId: id, containerId: one.id, number: 1, destinationName: "Kitchen" },
    { id: uuidv7(), locationId: loc, moveId: id, containerId: two.id, number: 2, destinationName: "المكتبة" },
  ]);
  return { id, one, two, lamp, tin };
});

/** The PDF as bytes (the test client reads bodies as text). */
async function pdfOf(svc: { url: string }, c: HttpClient, path: string): Promise<{ status: number; type: string | null; pdf: Buffer }> {
  const res = await fetch(`${svc.url}${path}`, { headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
  return { status: res.status, type: res.headers.get("content-type"), pdf: Buffer.from(await res.arrayBuffer()) };
}

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), "move-pdf-"));
  writeFileSync(join(dir, "m.pdf"), pdf);
  return execFileSync("pdftotext", ["-layout", join(dir, "m.pdf"), "-"], { encoding: "utf8" });
}

describe("printing a move", () => {
  test("box labels: a PDF with each box's number, destination and printed code", async ({ svc, as, move }) => {
    const { status, type, pdf } = await pdfOf(svc, as.viewer, `/api/v1/moves/${move.id}/labels.pdf`);
    expect(status).toBe(200);
    expect(type).toBe("application/pdf");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    if (!hasPoppler) return;
    const text = pdfText(pdf);
    for (const s of ["Box 1", "Box 2", "To: Kitchen", "Kitchen box", formatCode(move.one.shortCode), formatCode(move.two.shortCode)]) expect(text).toContain(s);
    expect(text).toContain("المكتبة");
  });

  test("packing lists: what each box holds, nested containers included; one box alone with containerId", async ({ svc, as, move }) => {
    const all = await pdfOf(svc, as.member, `/api/v1/moves/${move.id}/packing-list.pdf`);
    expect(all.status).toBe(200);
    if (hasPoppler) {
      const text = pdfText(all.pdf);
      expect(text).toMatch(/Desk lamp/);
      expect(text).toMatch(/Biscuit tin/);
      expect(text).toMatch(/Wood screws\s+\S*\s*40/);
      expect(text).toContain("Nothing recorded in this box.");
      // The tin's screws come after the tin (depth first).
      expect(text.indexOf("Wood screws")).toBeGreaterThan(text.indexOf("Biscuit tin"));
    }
    const one = await pdfOf(svc, as.member, `/api/v1/moves/${move.id}/packing-list.pdf?containerId=${move.two.id}&locale=ar`);
    expect(one.status).toBe(200);
    if (hasPoppler) {
      const text = pdfText(one.pdf);
      expect(text).toContain("صندوق الكتب");
      expect(text).toContain("قائمة التعبئة");
      expect(text).not.toContain("Desk lamp");
    }
  });

  test("bad input is refused; a box not in the move and an outsider get 404", async ({ as, move }) => {
    expect((await as.member.get(`/api/v1/moves/${move.id}/labels.pdf?locale=fr`)).status).toBe(400);
    expect((await as.member.get(`/api/v1/moves/${move.id}/packing-list.pdf?containerId=nope`)).status).toBe(400);
    expect((await as.member.get(`/api/v1/moves/${move.id}/packing-list.pdf?containerId=${move.lamp.id}`)).status).toBe(404);
    expect((await as.outsider.get(`/api/v1/moves/${move.id}/labels.pdf`)).status).toBe(404);
    expect((await as.outsider.get(`/api/v1/moves/${move.id}/packing-list.pdf`)).status).toBe(404);
  });
});
