/**
 * Receipts against the OpenAI-format provider stand-in: a receipt captured as such is read into a
 * purchase with its lines (a line that does not add up is flagged), shown as a `receipt` item with
 * amounts hidden from viewers (API and sync shape), accepted line by line into new or linked
 * things; an ambiguous "$" asks which currency it was through a `currency` item. A bad accept
 * changes nothing.
 */
import { describe, expect } from "vitest";
import { aiTest as test } from "../../support/ai-fixtures.js";
import { v7 as uuidv7 } from "uuid";
import { Shape, ShapeStream, type ShapeStreamInterface } from "@electric-sql/client";
import { inboxItemSchema, type InboxItem } from "../../../shared/inbox.js";
import { historyEntrySchema } from "../../../shared/history.js";
import { type Worker } from "../../../server/modules/extractions/worker.js";
import { rows, sql } from "../../../server/db/client.js";
import type { TestService } from "../../support/app.js";
import { locationWithRoles, type Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";
import { openaiFormat } from "../../support/ai-standins/openai.js";
import { type Standin } from "../../support/ai-standins/server.js";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
/** 12.00 + 9.00 + 2.00 = 23.00, and 4.40 tax makes the 27.40 total; but 2 × 3.00 is not 9.00. */
const HARDWARE = {
  vendor: "Hardware Store",
  date: "2025-03-14",
  currency: "EUR",
  total: "27.40",
  tax: "4.40",
  lines: [
    { description: "Hammer", quantity: 1, unitPrice: "12.00", lineTotal: "12.00" },
    { description: "Batteries AA", quantity: 2, unitPrice: "3.00", lineTotal: "9.00" },
    { description: "Tape", quantity: 1, unitPrice: "2.00", lineTotal: "2.00" },
  ],
};
/** In dollars of some kind; the lines (10.00) are nowhere near the total. */
const DOLLARS = {
  vendor: "Corner Shop",
  date: "2025-04-01",
  currency: "$",
  total: "50.00",
  tax: null,
  lines: [{ description: "Lamp", quantity: 1, unitPrice: "10.00", lineTotal: "10.00" }],
};

let standin: Standin;
let svc: TestService;
let as: Awaited<ReturnType<typeof locationWithRoles>>["as"];
let loc: string;
let worker: Worker;

test.override("aiKey", "sk-standin-receipts");
test.beforeAll(async ({ standin: stand, svc: service, team, worker: work }) => {
  standin = stand;
  svc = service;
  ({ as, locationId: loc } = team);
  worker = work;
});

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

async function upload(c: Client): Promise<string> {
  const res = await fetch(`${svc.url}/api/v1/files?locationId=${loc}`, {
    method: "POST",
    headers: { origin: svc.config.publicUrl.origin, cookie: cookieOf(c), "content-type": "image/png" },
    body: new Uint8Array(PNG),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** Captures a receipt of one page and lets the worker read it as `answer`. */
async function captureRead(answer: unknown): Promise<{ purchaseId: string; fileId: string }> {
  const fileId = await upload(as.member);
  const purchaseId = uuidv7();
  const res = await push(as.member, [op({ name: "receipt.capture", locationId: loc, args: { id: purchaseId, photoFileIds: [fileId] } })]);
  expect(res.body.results[0].status).toBe("applied");
  expect((await itemOf(as.member, "receipt", purchaseId))?.extraction).toMatchObject({ status: "queued" });
  standin.next({ do: "ok", object: answer });
  expect(await worker.drain()).toBe(1);
  return { purchaseId, fileId };
}

async function itemOf(c: Client, kind: string, match: string): Promise<InboxItem | undefined> {
  const res = await c.get(`/api/v1/inbox?locationId=${loc}&kind=${kind}&limit=200`);
  expect(res.status).toBe(200);
  const items = (res.body.items as unknown[]).map((i) => inboxItemSchema.parse(i));
  return items.find((i) => i.id === match || i.receipt?.purchaseId === match || JSON.stringify(i).includes(match));
}

const purchase = async (id: string) =>
  (
    await rows<{ currency: string | null; status: string; lines: { index: number; thingId?: string; action?: string }[] }>(
      svc.database.db,
      sql`SELECT currency, status, lines FROM purchases WHERE id = ${id}`,
    )
  )[0]!;

const thingsNamed = async (name: string) =>
  rows<{ id: string; quantity: string; lifecycle: string }>(
    svc.database.db,
    sql`SELECT id::text AS id, quantity::text AS quantity, lifecycle FROM things WHERE location_id = ${loc} AND name = ${name}`,
  );

type ShapeRow = Record<string, unknown> & { id: string };
async function inboxShape(c: Client): Promise<ShapeRow[]> {
  const stream = new ShapeStream<ShapeRow>({ url: `${svc.url}/api/v1/sync/shape/inbox`, headers: { cookie: cookieOf(c) }, subscribe: false });
  const shape = new Shape(stream as unknown as ShapeStreamInterface<ShapeRow>);
  try {
    return await shape.rows;
  } finally {
    stream.unsubscribeAll();
  }
}

describe("a receipt captured as such", () => {
  let purchaseId: string;
  let fileId: string;

  test("is read into a receipt item with its lines; the line that does not add up is flagged", async () => {
    const before = standin.received.length;
    ({ purchaseId, fileId } = await captureRead(HARDWARE));
    const sent = standin.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(openaiFormat().imagesOf(sent[0]!.body)).toHaveLength(1);
    expect(JSON.stringify(openaiFormat().schemaOf(sent[0]!.body))).toContain('"lineTotal"');

    const item = (await itemOf(as.member, "receipt", purchaseId))!;
    expect(item.id).toBe(purchaseId);
    expect(item.extraction).toMatchObject({ status: "succeeded", call: { outcome: "ok" } });
    expect(item.receipt).toEqual({
      purchaseId,
      pages: [{ fileId, thumbUrl: `/api/v1/files/${fileId}/thumb` }],
      vendorSeen: "Hardware Store",
      purchasedOn: "2025-03-14",
      currency: "EUR",
      total: "27.40",
      tax: "4.40",
      lines: [
        { index: 0, description: "Hammer", quantity: "1", unitPrice: "12.00", flagged: false },
        { index: 1, description: "Batteries AA", quantity: "2", unitPrice: "3.00", flagged: true },
        { index: 2, description: "Tape", quantity: "1", unitPrice: "2.00", flagged: false },
      ],
    });
    const calls = await rows<{ task: string; thing_id: string | null }>(
      svc.database.db,
      sql`SELECT task, thing_id FROM ai_calls WHERE extraction_id = ${item.extraction!.id}`,
    );
    expect(calls).toEqual([{ task: "extract_receipt", thing_id: null }]);
    // A known code raises no currency item.
    expect(await itemOf(as.member, "currency", purchaseId)).toBeUndefined();
  });

  test("a viewer sees moneyHidden and no amounts, in the API and on the device", async () => {
    const seen = (await itemOf(as.viewer, "receipt", purchaseId))!.receipt!;
    expect(seen.moneyHidden).toBe(true);
    expect(seen).not.toHaveProperty("total");
    expect(seen).not.toHaveProperty("tax");
    expect(seen.lines.map((l) => l.unitPrice)).toEqual([undefined, undefined, undefined]);
    expect(seen.lines[1]).toMatchObject({ description: "Batteries AA", flagged: true });
    expect((await itemOf(as.member, "receipt", purchaseId))!.receipt!.moneyHidden).toBeUndefined();

    const onViewer = (await inboxShape(as.viewer)).find((r) => r.id === purchaseId)!;
    const payload = (typeof onViewer.payload === "string" ? JSON.parse(onViewer.payload) : onViewer.payload) as { receipt: Record<string, unknown> };
    expect(payload.receipt.moneyHidden).toBe(true);
    expect(JSON.stringify(payload)).not.toMatch(/27\.40|4\.40|12\.00|lineTotal|unitPrice/);
    const onMember = (await inboxShape(as.member)).find((r) => r.id === purchaseId)!;
    expect(JSON.stringify(onMember.payload)).toContain("27.40");
  });

  test("a bad accept changes nothing: an unknown line, a line decided twice, a thing not there, a currency, a viewer", async () => {
    const url = `/api/v1/inbox/${purchaseId}/accept`;
    expect((await as.member.post(url, { lines: [{ index: 7, action: "skip" }] })).status).toBe(400);
    expect(
      (
        await as.member.post(url, {
          lines: [
            { index: 0, action: "skip" },
            { index: 0, action: "create" },
          ],
        })
      ).status,
    ).toBe(400);
    expect((await as.member.post(url, { lines: [{ index: 1, action: "link", thingId: uuidv7() }] })).status).toBe(404);
    expect((await as.member.post(url, { lines: [{ index: 1, action: "link" }] })).status).toBe(400);
    expect((await as.member.post(url, { currency: "EUR" })).status).toBe(400);
    expect((await as.viewer.post(url, {})).status).toBe(403);
    expect(await thingsNamed("Hammer")).toEqual([]);
    expect(await itemOf(as.member, "receipt", purchaseId)).toBeDefined();
    expect((await purchase(purchaseId)).status).toBe("read");
  });

  test("accepting creates things for the chosen lines (with their history), links another, skips one", async () => {
    const oldId = uuidv7();
    expect(
      (await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id: oldId, name: "Batteries from before" } })])).body.results[0].status,
    ).toBe("applied");
    const res = await as.member.post(`/api/v1/inbox/${purchaseId}/accept`, {
      lines: [
        { index: 1, action: "link", thingId: oldId },
        { index: 2, action: "skip" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ status: "accepted" });
    const [hammer] = await thingsNamed("Hammer");
    expect(hammer).toMatchObject({ lifecycle: "active", quantity: "1.000" });
    expect(await thingsNamed("Tape")).toEqual([]);
    expect(await thingsNamed("Batteries AA")).toEqual([]);
    const history = (await as.member.get(`/api/v1/things/${hammer!.id}/history`)).body.items.map((h: unknown) => historyEntrySchema.parse(h));
    expect(history.map((h: { action: string }) => h.action)).toContain("thing.created");
    const bought = await purchase(purchaseId);
    expect(bought.status).toBe("accepted");
    expect(bought.lines.map((l) => [l.index, l.action, l.thingId])).toEqual([
      [0, "create", hammer!.id],
      [1, "link", oldId],
      [2, "skip", undefined],
    ]);
    expect(await itemOf(as.member, "receipt", purchaseId)).toBeUndefined();
    // Decided once: the same accept again is refused.
    expect((await as.member.post(`/api/v1/inbox/${purchaseId}/accept`, {})).status).toBe(409);
  });
});

describe("an ambiguous currency", () => {
  test("'$' raises a currency item; a pick outside its options changes nothing; accepting sets the purchase's currency", async () => {
    const { purchaseId } = await captureRead(DOLLARS);
    const receipt = (await itemOf(as.member, "receipt", purchaseId))!.receipt!;
    expect(receipt.currency).toBeUndefined();
    // 10.00 of lines cannot make 50.00: every line is flagged.
    expect(receipt.lines).toEqual([{ index: 0, description: "Lamp", quantity: "1", unitPrice: "10.00", flagged: true }]);
    const asked = (await itemOf(as.member, "currency", purchaseId))!;
    expect(asked.currency).toEqual({ seen: "$", options: ["USD", "CAD", "AUD", "NZD", "MXN", "SGD", "HKD"] });

    const url = `/api/v1/inbox/${asked.id}/accept`;
    expect((await as.member.post(url, { currency: "EUR" })).status).toBe(400);
    expect((await as.member.post(url, {})).status).toBe(400);
    expect((await as.member.post(url, { currency: "usd" })).status).toBe(400);
    expect((await purchase(purchaseId)).currency).toBeNull();

    // A device's op, as the app sends it.
    const picked = await push(as.member, [op({ name: "inbox.accept", locationId: loc, args: { id: asked.id, currency: "CAD" } })]);
    expect(picked.body.results[0].status).toBe("applied");
    expect((await purchase(purchaseId)).currency).toBe("CAD");
    expect((await itemOf(as.member, "receipt", purchaseId))!.receipt!.currency).toBe("CAD");
    expect(await itemOf(as.member, "currency", asked.id)).toBeUndefined();
  });

  test("the location's own currency comes first among the options next time", async () => {
    const { purchaseId } = await captureRead({ ...DOLLARS, vendor: "Another shop" });
    const asked = (await itemOf(as.member, "currency", purchaseId))!;
    expect(asked.currency!.options.slice(0, 2)).toEqual(["CAD", "USD"]);
  });
});

test("a capture naming a photo or place of no one's is refused and makes nothing", async () => {
  const purchaseId = uuidv7();
  const bad = await push(as.member, [op({ name: "receipt.capture", locationId: loc, args: { id: purchaseId, photoFileIds: [uuidv7()] } })]);
  expect(bad.body.results[0].status).toBe("dropped");
  const fileId = await upload(as.member);
  const noPlace = await push(as.member, [
    op({ name: "receipt.capture", locationId: loc, args: { id: purchaseId, photoFileIds: [fileId], placeId: uuidv7() } }),
  ]);
  expect(noPlace.body.results[0].status).toBe("dropped");
  const viewer = await push(as.viewer, [op({ name: "receipt.capture", locationId: loc, args: { id: purchaseId, photoFileIds: [fileId] } })]);
  expect(viewer.body.results[0].status).toBe("dropped");
  expect(await rows(svc.database.db, sql`SELECT 1 FROM purchases WHERE id = ${purchaseId}`)).toEqual([]);
});
