import { describe, expect } from "vitest";
import { pageOf } from "../../../shared/paging.js";
import { thingSummarySchema, type ThingSummary } from "../../../shared/things.js";
import type { Client } from "../../support/members.js";
import { apiTest } from "../../support/fixtures.js";

/**
 * The list answers in one statement (app_things_page, migrations/0036_one_trip_reads.sql) while a
 * thing's detail gathers its summary in TypeScript (server/modules/things/read.ts summaries): the
 * two must say the same thing about every thing.
 */
const test = apiTest;

async function listAll(c: Client, loc: string, limit: number): Promise<ThingSummary[]> {
  const out: ThingSummary[] = [];
  let cursor: string | null = null;
  do {
    const res = await c.get(`/api/v1/locations/${loc}/things?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status).toBe(200);
    const page = pageOf(thingSummarySchema).parse(res.body);
    out.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

describe("things list", () => {
  test("every listed summary equals the summary part of the thing's detail", async ({ loc, as }) => {
    const shelf = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Garage shelf" });
    const box = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Box 7", placeId: shelf.body.id, isContainer: true });
    expect(box.status).toBe(201);
    for (const body of [{ name: "Screws", containerId: box.body.id, quantity: "2.5" }, { name: "Äpfel" }, { name: "ladder" }, { name: "Ladder" }])
      expect((await as.member.post(`/api/v1/locations/${loc}/things`, body)).status).toBe(201);
    const listed = await listAll(as.viewer, loc, 2);
    expect(listed.length).toBeGreaterThanOrEqual(5);
    for (const item of listed) {
      const detail = await as.viewer.get(`/api/v1/things/${item.id}`);
      expect(detail.status).toBe(200);
      const summaryPart = Object.fromEntries(Object.keys(item).map((k) => [k, detail.body[k]]));
      expect(item).toEqual(summaryPart);
    }
    // Paging by two gives every thing once, in the order one big page has.
    expect(listed.map((t) => t.id)).toEqual((await listAll(as.viewer, loc, 200)).map((t) => t.id));
    expect(listed.find((t) => t.name === "Screws")?.path.map((p) => `${p.kind}:${p.name}`)).toEqual(["place:Garage shelf", "container:Box 7"]);
  });

  test("a location the caller is not a member of is 404, and so is one that does not exist", async ({ as, loc }) => {
    const own = (await as.outsider.get("/api/v1/me")).body.locations[0].id as string;
    expect((await as.outsider.get(`/api/v1/locations/${own}/things`)).status).toBe(200);
    expect((await as.outsider.get(`/api/v1/locations/${loc}/things`)).status).toBe(404);
    expect((await as.member.get(`/api/v1/locations/${own}/things`)).status).toBe(404);
    expect((await as.member.get(`/api/v1/locations/00000000-0000-4000-8000-000000000000/things`)).status).toBe(404);
  });
});
