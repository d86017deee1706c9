/**
 * POST /scan/resolve: every outcome the spec lists, read the same way the app reads a scan
 * (shared/codes.ts classifyScan). A code of a location the person cannot see answers exactly as
 * an unknown one.
 */
import { describe, expect } from "vitest";
import { formatCode, isProductBarcode } from "../../../shared/codes.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";

const make = async (c: Client, loc: string, body: Record<string, unknown>) => {
  const res = await c.post(`/api/v1/locations/${loc}/things`, body);
  expect(res.status).toBe(201);
  return res.body as { id: string; shortCode: string };
};
const scan = async (c: Client, text: string, format?: string) => {
  const res = await c.post("/api/v1/scan/resolve", { text, ...(format ? { format } : {}) });
  expect(res.status).toBe(200);
  return res.body;
};

describe("scan resolve", () => {
  test("a code, bare or as a label's link in any case and grouping, opens its thing", async ({ loc, as }) => {
    const t = await make(as.member, loc, { name: "Drill" });
    const open = { outcome: "open", target: { kind: "thing", id: t.id, locationId: loc } };
    expect(await scan(as.viewer, t.shortCode)).toEqual(open);
    expect(await scan(as.viewer, formatCode(t.shortCode).toLowerCase())).toEqual(open);
    expect(await scan(as.viewer, `https://labels.example.org/c/${formatCode(t.shortCode)}`)).toEqual(open);
    expect(await scan(as.viewer, `/c/${t.shortCode.toLowerCase()}?from=camera`)).toEqual(open);
  });

  test("a code of a location the person cannot see answers exactly as an unknown code", async ({ loc, as }) => {
    const t = await make(as.member, loc, { name: "Secret stash" });
    const unknown = t.shortCode === "ZZZZZZ" ? "YYYYYY" : "ZZZZZZ";
    const hidden = await as.outsider.post("/api/v1/scan/resolve", { text: t.shortCode });
    const missing = await as.outsider.post("/api/v1/scan/resolve", { text: unknown });
    expect(hidden.status).toBe(missing.status);
    expect(hidden.body).toEqual({ outcome: "not_found" });
    expect(JSON.stringify(hidden.body)).toBe(JSON.stringify(missing.body));
  });

  test("a free label: members are offered to claim it, a viewer finds nothing", async ({ loc, as }) => {
    const sheet = await as.owner.post(`/api/v1/locations/${loc}/label-sheets`, { count: 1 });
    const [code] = sheet.body.codes as string[];
    expect(await scan(as.member, code!)).toEqual({ outcome: "claim", locationId: loc, code });
    expect(await scan(as.viewer, code!)).toEqual({ outcome: "not_found" });
    expect(await scan(as.outsider, code!)).toEqual({ outcome: "not_found" });
  });

  test("a location link switches to it when visible", async ({ loc, as }) => {
    expect(await scan(as.viewer, `https://inv.example/l/${loc}`)).toEqual({ outcome: "switch_location", locationId: loc });
    expect(await scan(as.outsider, `https://inv.example/l/${loc}`)).toEqual({ outcome: "not_found" });
  });

  test("a product barcode: one thing opens, several are candidates, none is a barcode with no lookup", async ({ loc, as }) => {
    const one = "4006381333931";
    const many = "5901234123457";
    const none = "9780201379624";
    for (const b of [one, many, none]) expect(isProductBarcode(b)).toBe(true);
    const single = await make(as.member, loc, { name: "Pencils", serial: one });
    const a = await make(as.member, loc, { name: "Glue A", serial: many });
    const b = await make(as.member, loc, { name: "Glue B", serial: many });
    expect(await scan(as.viewer, one)).toEqual({ outcome: "open", target: { kind: "thing", id: single.id, locationId: loc } });
    const candidates = await scan(as.viewer, many, "ean_13");
    expect(candidates.outcome).toBe("candidates");
    expect(candidates.candidates.map((c: { id: string }) => c.id).sort()).toEqual([a.id, b.id].sort());
    expect(candidates.candidates[0]).toMatchObject({ kind: "thing", locationId: loc, locationName: expect.any(String) });
    expect(await scan(as.viewer, none)).toEqual({ outcome: "barcode", barcode: { code: none, lookupEnabled: false } });
    // Things the person cannot see are not matched.
    expect(await scan(as.outsider, one)).toEqual({ outcome: "barcode", barcode: { code: one, lookupEnabled: false } });
  });

  test("plain text is text; the body is checked", async ({ as }) => {
    expect(await scan(as.viewer, "  call Sam about the ladder ")).toEqual({ outcome: "text", text: "call Sam about the ladder" });
    // A link with broken escapes is text, not a server error.
    expect(await scan(as.viewer, "https://x.example/c/%E0%A4%A")).toEqual({ outcome: "text", text: "https://x.example/c/%E0%A4%A" });
    expect((await as.viewer.post("/api/v1/scan/resolve", { text: "" })).status).toBe(400);
    expect((await as.viewer.post("/api/v1/scan/resolve", { text: "x".repeat(4097) })).status).toBe(400);
    expect((await as.viewer.post("/api/v1/scan/resolve", { text: "x".repeat(4096) })).status).toBe(200);
  });
});
