/**
 * GET /api/v1/loans (spec "GET /api/v1/loans", "Limits"): filters, counts, paging, only the
 * locations the reader reads, and each limit at its bound and one past.
 */
import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { loanListSchema } from "../../../shared/loans.js";
import { loans } from "../../../server/db/schema/index.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { HttpClient } from "../../support/app.js";

const DAY = 86_400_000;
const dayFrom = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);

async function thingIn(c: HttpClient, loc: string, body: Record<string, unknown> = {}) {
  const made = await c.post(`/api/v1/locations/${loc}/things`, { name: "Drill", ...body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body as { id: string };
}

const lend = (c: HttpClient, thingId: string, body: Record<string, unknown> = {}) =>
  c.post(`/api/v1/things/${thingId}/loans`, { direction: "out", person: { name: "Sam" }, ...body });

describe("the list", () => {
  test("filters, counts, paging and each limit at its bound and one past", async ({ svc, as }) => {
    // A location of its own, so the counts are this test's.
    const home = await as.member.post("/api/v1/locations", { name: "Loans test" });
    const loc = home.body.id as string;
    const c = as.member;
    const t = async (name: string) => (await thingIn(c, loc, { name })).id;
    const a = (await lend(c, await t("Saw"), { person: { name: "Rami" }, dueOn: dayFrom(5) })).body;
    const b = (await lend(c, await t("Jack"), { person: { name: "Lina" } })).body;
    const d = (await c.post(`/api/v1/things/${await t("Kayak")}/loans`, { direction: "in", person: { name: "Omar" } })).body;
    const late = (await lend(c, await t("Sander"), { person: { name: "Rami Two" } })).body;
    // Made overdue the only way a loan gets there: time passes (its due date is moved into the past directly).
    await svc.database.db
      .update(loans)
      .set({ dueOn: dayFrom(-3) })
      .where(eq(loans.id, late.id));
    expect((await c.post(`/api/v1/loans/${b.id}/return`, {})).status).toBe(200);
    const list = async (q: string) => {
      const res = await c.get(`/api/v1/loans?locationId=${loc}&${q}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return loanListSchema.parse(res.body);
    };
    const all = await list("");
    expect(all.counts).toEqual({ out: 2, in: 1, overdue: 1 });
    expect(all.items.map((l) => l.id)).toEqual([late.id, d.id, b.id, a.id]);
    expect((await list("direction=in")).items.map((l) => l.id)).toEqual([d.id]);
    expect((await list("state=open")).items.map((l) => l.id)).toEqual([late.id, d.id, a.id]);
    expect((await list("state=returned")).items.map((l) => l.id)).toEqual([b.id]);
    const overdue = await list("state=overdue");
    expect(overdue.items.map((l) => l.id)).toEqual([late.id]);
    expect(overdue.items[0]!.overdue).toBe(true);
    expect((await list(`personId=${a.person.id}`)).items.map((l) => l.id)).toEqual([a.id]);
    expect((await list("q=rami")).items.map((l) => l.id)).toEqual([late.id, a.id]);
    expect((await list("q=kayak")).items.map((l) => l.id)).toEqual([d.id]);
    const p1 = await list("limit=2");
    expect(p1.items).toHaveLength(2);
    const p2 = await list(`limit=2&cursor=${p1.next_cursor}`);
    expect([...p1.items, ...p2.items].map((l) => l.id)).toEqual([late.id, d.id, b.id, a.id]);
    expect(p2.next_cursor).toBeNull();
    // Limits.
    const status = async (q: string) => (await c.get(`/api/v1/loans?${q}`)).status;
    expect(await status(`q=${"x".repeat(200)}`)).toBe(200);
    expect(await status(`q=${"x".repeat(201)}`)).toBe(400);
    expect(await status("limit=200")).toBe(200);
    expect(await status("limit=201")).toBe(400);
    expect(await status("limit=0")).toBe(400);
    expect(await status("limit=1")).toBe(200);
    expect(await status("state=late")).toBe(400);
    // A real cursor (the page's own key) padded with JSON whitespace to exactly 2048 characters (1536 bytes in base64url).
    const key = JSON.stringify(["2026-01-01T00:00:00.000000Z", uuidv7()]);
    const cursor2048 = Buffer.from(key.padEnd(1536, " ")).toString("base64url");
    expect(cursor2048).toHaveLength(2048);
    expect(await status(`cursor=${cursor2048}`)).toBe(200);
    expect(await status(`cursor=${cursor2048}A`)).toBe(400);
    // The default page is 20.
    expect((await c.get("/api/v1/loans")).body.items.length).toBeLessThanOrEqual(20);
    // Another member of the account who cannot read that location sees none of it.
    expect((await as.viewer.get(`/api/v1/loans?locationId=${loc}`)).body).toEqual({ items: [], counts: { out: 0, in: 0, overdue: 0 }, next_cursor: null });
  });
});
