/**
 * Issue 31 finding 11: a REST write's version is optional (sync/SPEC.md VE6). Sent in the body or as
 * If-Match (the record's ETag), a stale one is 409; left out, the fields apply to the current record.
 * Every REST write whose body takes a rowVersion is in the table below, and the table is checked
 * against the routes the server mounts, so a new one cannot be left out.
 */
import { describe, expect } from "vitest";
import { carriesVersion } from "../../../server/http/etag.js";
import { routes } from "../../../server/http/route.js";
import type { TestService } from "../../support/app.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { PNG, raw } from "../../support/rich-location.js";

type Made = { status: number; body: any };
const ok = async (res: Promise<Made>, status = 201) => {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};
const thing = (c: Client, loc: string, body: Record<string, unknown> = {}) => ok(c.post(`/api/v1/locations/${loc}/things`, { name: "Drill", ...body }));
const meterOn = async (c: Client, loc: string) => ok(c.post(`/api/v1/things/${(await thing(c, loc)).id}/meters`, { kind: "water", unit: "m3", label: "Cold" }));
async function upload(svc: TestService, c: Client, loc: string): Promise<string> {
  const up = await raw(svc, c, "POST", `/api/v1/files?locationId=${loc}`, PNG, { "content-type": "application/octet-stream" });
  expect(up.status).toBe(201);
  return up.json().id;
}

interface Case {
  /** Method and express path, as the route list names them. */
  route: string;
  /** Makes the record; answers the request path and body (without a version). */
  make(svc: TestService, c: Client, loc: string, memberId: string): Promise<{ path: string; body?: Record<string, unknown> }>;
}

const CASES: Case[] = [
  { route: "PATCH /api/v1/things/:id", make: async (_s, c, loc) => ({ path: `/api/v1/things/${(await thing(c, loc)).id}`, body: { name: "Hammer" } }) },
  { route: "DELETE /api/v1/things/:id", make: async (_s, c, loc) => ({ path: `/api/v1/things/${(await thing(c, loc)).id}` }) },
  {
    route: "POST /api/v1/things/:id/photos",
    make: async (s, c, loc) => ({ path: `/api/v1/things/${(await thing(c, loc)).id}/photos`, body: { fileId: await upload(s, c, loc) } }),
  },
  {
    route: "PUT /api/v1/things/:id/cover",
    make: async (s, c, loc) => {
      const id = (await thing(c, loc)).id;
      const fileId = await upload(s, c, loc);
      await ok(c.post(`/api/v1/things/${id}/photos`, { fileId }), 200);
      return { path: `/api/v1/things/${id}/cover`, body: { fileId } };
    },
  },
  {
    route: "DELETE /api/v1/things/:id/photos/:fileId",
    make: async (s, c, loc) => {
      const id = (await thing(c, loc)).id;
      const fileId = await upload(s, c, loc);
      await ok(c.post(`/api/v1/things/${id}/photos`, { fileId }), 200);
      return { path: `/api/v1/things/${id}/photos/${fileId}` };
    },
  },
  {
    route: "POST /api/v1/things/:id/move",
    make: async (_s, c, loc) => ({
      path: `/api/v1/things/${(await thing(c, loc)).id}/move`,
      body: { placeId: (await ok(c.post(`/api/v1/locations/${loc}/places`, { name: "Attic" }))).id },
    }),
  },
  {
    route: "PATCH /api/v1/places/:id",
    make: async (_s, c, loc) => ({
      path: `/api/v1/places/${(await ok(c.post(`/api/v1/locations/${loc}/places`, { name: "Shed" }))).id}`,
      body: { name: "Barn" },
    }),
  },
  {
    route: "DELETE /api/v1/places/:id",
    make: async (_s, c, loc) => ({ path: `/api/v1/places/${(await ok(c.post(`/api/v1/locations/${loc}/places`, { name: "Shed" }))).id}` }),
  },
  { route: "PATCH /api/v1/meters/:id", make: async (_s, c, loc) => ({ path: `/api/v1/meters/${(await meterOn(c, loc)).id}`, body: { label: "Hot" } }) },
  { route: "DELETE /api/v1/meters/:id", make: async (_s, c, loc) => ({ path: `/api/v1/meters/${(await meterOn(c, loc)).id}` }) },
  {
    route: "PATCH /api/v1/templates/:id",
    make: async (_s, c, loc) => {
      const t = await ok(c.post(`/api/v1/things/${(await thing(c, loc)).id}/save-as-template`, { name: "Kit", locationIds: [loc] }));
      return { path: `/api/v1/templates/${t.id}`, body: { name: "Kit 2" } };
    },
  },
  {
    route: "DELETE /api/v1/templates/:id",
    make: async (_s, c, loc) => ({
      path: `/api/v1/templates/${(await ok(c.post(`/api/v1/things/${(await thing(c, loc)).id}/save-as-template`, { name: "Kit", locationIds: [loc] }))).id}`,
    }),
  },
  {
    route: "PATCH /api/v1/moves/:id",
    make: async (_s, c, loc) => ({ path: `/api/v1/moves/${(await ok(c.post(`/api/v1/locations/${loc}/moves`, { name: "Out" }))).id}`, body: { name: "Away" } }),
  },
  ...(["PATCH", "DELETE"] as const).map((method) => ({
    route: `${method} /api/v1/moves/:id/boxes/:containerId`,
    make: async (_s: TestService, c: Client, loc: string) => {
      const move = await ok(c.post(`/api/v1/locations/${loc}/moves`, { name: "Out" }));
      const crate = await thing(c, loc, { name: "Crate", isContainer: true });
      await ok(c.post(`/api/v1/moves/${move.id}/boxes`, { containerId: crate.id }));
      return { path: `/api/v1/moves/${move.id}/boxes/${crate.id}`, ...(method === "PATCH" ? { body: { state: "in_transit" } } : {}) };
    },
  })),
  {
    route: "PATCH /api/v1/loans/:id",
    make: async (_s, c, loc) => ({
      path: `/api/v1/loans/${(await ok(c.post(`/api/v1/things/${(await thing(c, loc)).id}/loans`, { direction: "out", person: { name: "Sam" } }))).id}`,
      body: { notes: "Back by Friday" },
    }),
  },
  {
    route: "PATCH /api/v1/types/:id",
    make: async (_s, c, loc) => ({ path: `/api/v1/types/${(await ok(c.post(`/api/v1/locations/${loc}/types`, { name: "Saw" }))).id}`, body: { name: "Saws" } }),
  },
  ...(["PATCH", "DELETE"] as const).map((method) => ({
    route: `${method} /api/v1/type-fields/:id`,
    make: async (_s: TestService, c: Client, loc: string) => {
      const type = await ok(c.post(`/api/v1/locations/${loc}/types`, { name: `Saw ${method}` }));
      const field = await ok(c.post(`/api/v1/types/${type.id}/fields`, { key: "blade", label: "Blade", kind: "text" }));
      return { path: `/api/v1/type-fields/${field.id}`, ...(method === "PATCH" ? { body: { label: "Blade size" } } : {}) };
    },
  })),
  {
    route: "PATCH /api/v1/webhooks/:id",
    make: async (_s, c, loc) => ({
      path: `/api/v1/webhooks/${(await ok(c.post(`/api/v1/locations/${loc}/webhooks`, { url: "https://hooks.example/in", events: ["thing.created"] }))).id}`,
      body: { active: false },
    }),
  },
  {
    route: "PATCH /api/v1/locations/:id",
    make: async (_s, c) => ({ path: `/api/v1/locations/${(await ok(c.post("/api/v1/locations", { name: "Cabin" }))).id}`, body: { name: "Lodge" } }),
  },
  {
    route: "PATCH /api/v1/locations/:id/members/:userId",
    make: async (_s, _c, loc, memberId) => ({ path: `/api/v1/locations/${loc}/members/${memberId}`, body: { role: "member" } }),
  },
];

const send = (c: Client, method: string, path: string, body?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  c.request(method, path, body, headers);

describe("a REST write without a version", () => {
  test("the table holds every REST write whose body takes a rowVersion", async ({ as }) => {
    expect(as.owner).toBeTruthy(); // mounts the routes
    const versioned = routes.filter((r) => r.method !== "get" && carriesVersion(r.body)).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(new Set(CASES.map((c) => c.route))).toEqual(new Set(versioned));
  });

  test.for(CASES.map((c) => [c.route, c] as const))("%s applies with no version", async ([route, c], { svc, loc, as }) => {
    const { path, body } = await c.make(svc, as.owner, loc, as.member.userId);
    const res = await send(as.owner, route.split(" ")[0]!, path, body);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  });
});

describe("the OpenAPI document", () => {
  test("versioned writes list If-Match and no required rowVersion; record answers list the ETag header", async ({ as }) => {
    const doc = (await as.owner.get("/api/v1/openapi.json")).body;
    const deref = (s: { $ref?: string; required?: string[] }) => (s.$ref ? doc.components.schemas[s.$ref.split("/").pop()!] : s);
    for (const c of CASES) {
      const [method, path] = c.route.split(" ") as [string, string];
      const op = doc.paths[path.replace(/:(\w+)/g, "{$1}")][method.toLowerCase()];
      expect(
        op.parameters.map((p: { name: string }) => p.name),
        c.route,
      ).toContain("If-Match");
      const body = op.requestBody?.content["application/json"].schema;
      if (body) expect(deref(body).required ?? [], c.route).not.toContain("rowVersion");
    }
    expect(doc.paths["/api/v1/meters/{id}"].get.responses["200"].headers.ETag).toBeDefined();
    expect(doc.paths["/api/v1/meters/{id}"].patch.responses["200"].headers.ETag).toBeDefined();
  });
});

describe("meters: PATCH with, without and against a version", () => {
  test("{label} alone is 200 and changes only the label, whatever version is current", async ({ loc, as }) => {
    const meter = await meterOn(as.member, loc);
    await ok(as.member.patch(`/api/v1/meters/${meter.id}`, { nudgeDays: 30, rowVersion: 1 }), 200);
    const res = await as.member.patch(`/api/v1/meters/${meter.id}`, { label: "Hot" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ label: "Hot", nudgeDays: 30, rowVersion: 3 });
    expect(res.headers.get("etag")).toBe('"3"');
  });

  test("a stale rowVersion in the body is 409 and changes nothing", async ({ loc, as }) => {
    const meter = await meterOn(as.member, loc);
    await ok(as.member.patch(`/api/v1/meters/${meter.id}`, { label: "Warm" }), 200);
    const res = await as.member.patch(`/api/v1/meters/${meter.id}`, { label: "Hot", rowVersion: 1 });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("version_conflict");
    expect((await as.member.get(`/api/v1/meters/${meter.id}`)).body.label).toBe("Warm");
  });

  test("GET answers the ETag; If-Match with it is 200, with an older one 409", async ({ loc, as }) => {
    const meter = await meterOn(as.member, loc);
    const first = await as.member.get(`/api/v1/meters/${meter.id}`);
    expect(first.headers.get("etag")).toBe('"1"');
    const changed = await send(as.member, "PATCH", `/api/v1/meters/${meter.id}`, { label: "Hot" }, { "if-match": first.headers.get("etag")! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).toBe('"2"');
    const stale = await send(as.member, "PATCH", `/api/v1/meters/${meter.id}`, { label: "Cold" }, { "if-match": first.headers.get("etag")! });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");
    // If-None-Match never gets a 304 on a record: the ETag names the version, not the bytes.
    expect((await as.member.request("GET", `/api/v1/meters/${meter.id}`, undefined, { "if-none-match": '"2"' })).status).toBe(200);
  });

  test("If-Match malformed, disagreeing with the body, or on a route without versions is 400", async ({ loc, as }) => {
    const meter = await meterOn(as.member, loc);
    for (const value of ["3", 'W/"1"', '"1", "2"', '"abc"', '"0"']) {
      const res = await send(as.member, "PATCH", `/api/v1/meters/${meter.id}`, { label: "Hot" }, { "if-match": value });
      expect(res.status, value).toBe(400);
      expect(res.body.error.message).toMatch(/If-Match/);
    }
    const both = await send(as.member, "PATCH", `/api/v1/meters/${meter.id}`, { label: "Hot", rowVersion: 2 }, { "if-match": '"1"' });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/If-Match says version 1 but the body's rowVersion is 2/);
    const same = await send(as.member, "PATCH", `/api/v1/meters/${meter.id}`, { label: "Hot", rowVersion: 1 }, { "if-match": '"1"' });
    expect(same.status).toBe(200);
    const star = await send(as.member, "PATCH", `/api/v1/meters/${meter.id}`, { label: "Warm" }, { "if-match": "*" });
    expect(star.status).toBe(200);
    const notVersioned = await send(as.member, "POST", `/api/v1/meters/${meter.id}/readings`, { value: "1" }, { "if-match": '"1"' });
    expect(notVersioned.status).toBe(400);
    expect((await as.member.get(`/api/v1/meters/${meter.id}`)).body).toMatchObject({ label: "Warm", needsReview: 0 });
  });

  test("DELETE with no body is 200; with a stale If-Match 409", async ({ loc, as }) => {
    const kept = await meterOn(as.member, loc);
    await ok(as.member.patch(`/api/v1/meters/${kept.id}`, { label: "Warm" }), 200);
    const stale = await send(as.member, "DELETE", `/api/v1/meters/${kept.id}`, undefined, { "if-match": '"1"' });
    expect(stale.status).toBe(409);
    const gone = await send(as.member, "DELETE", `/api/v1/meters/${kept.id}`);
    expect(gone.status).toBe(200);
    expect(gone.headers.get("etag")).toBe(`"${gone.body.rowVersion}"`);
    expect((await as.member.get(`/api/v1/meters/${kept.id}`)).status).toBe(404);
  });
});
