/**
 * Proxy mode (sync/SPEC.md SH8) against a local stand-in for Electric that records what it was
 * asked. No real Electric runs on our machines (it needs Docker or a recent Elixir with hex).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Shape, ShapeStream, type Row, type ShapeStreamInterface } from "@electric-sql/client";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startService, type TestService } from "../support/app.js";
import { locationWithRoles } from "../support/members.js";

let upstream: Server;
let seen: URL[] = [];
let reply409 = false;
let svc: TestService;
let loc: string;
let as: Awaited<ReturnType<typeof locationWithRoles>>["as"];

beforeAll(async () => {
  upstream = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? "/", "http://upstream");
    seen.push(url);
    if (reply409) {
      res.writeHead(409, { "content-type": "application/json", "electric-handle": "h-2" });
      return res.end(JSON.stringify([{ headers: { control: "must-refetch" } }]));
    }
    // A minimal Electric: snapshot at -1, then up to date at 0_inf, then live requests hold.
    const offset = url.searchParams.get("offset");
    if (url.searchParams.get("live") === "true" && offset === "0_inf" && url.searchParams.get("cursor") === null) {
      return void setTimeout(() => {
        res.writeHead(200, {
          "content-type": "application/json",
          "electric-handle": "h-1",
          "electric-offset": "0_inf",
          "electric-cursor": "1",
          "electric-up-to-date": "true",
        });
        res.end(JSON.stringify([{ headers: { control: "up-to-date" } }]));
      }, 2000);
    }
    const snapshot = offset === "-1";
    res.writeHead(200, {
      "content-type": "application/json",
      "electric-handle": "h-1",
      "electric-offset": snapshot ? "0_0" : "0_inf",
      "electric-schema": JSON.stringify({ id: { type: "uuid", pk_index: 0 }, name: { type: "text" } }),
      ...(snapshot ? {} : { "electric-up-to-date": "true" }),
      ...(url.searchParams.get("live") === "true" ? { "electric-cursor": "1" } : {}),
      "retry-after": "3",
    });
    res.end(
      JSON.stringify(
        snapshot
          ? [{ key: '"public"."things"/"1"', value: { id: "00000000-0000-4000-8000-000000000001", name: "From Electric" }, headers: { operation: "insert" } }]
          : [{ headers: { control: "up-to-date" } }],
      ),
    );
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  const port = (upstream.address() as AddressInfo).port;
  svc = await startService({ SVC_ELECTRIC_URL: `http://127.0.0.1:${port}`, SVC_ELECTRIC_SECRET: "electric-secret" });
  ({ locationId: loc, as } = await locationWithRoles(svc));
});
afterAll(async () => {
  await svc?.close();
  await new Promise((r) => upstream.close(r));
});

const cookie = (c: typeof as.viewer) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

test("SH8 the real client reads through the proxy; table, where, columns and secret come from the server", async () => {
  seen = [];
  const stream = new ShapeStream<Row>({ url: `${svc.url}/api/v1/sync/shape/things`, headers: { cookie: cookie(as.viewer) }, subscribe: false });
  const rows = await new Shape(stream as unknown as ShapeStreamInterface<Row>).rows;
  expect(rows.map((r) => r.name)).toEqual(["From Electric"]);
  const asked = seen[0]!;
  expect(asked.pathname).toBe("/v1/shape");
  expect(asked.searchParams.get("table")).toBe("things");
  expect(asked.searchParams.get("secret")).toBe("electric-secret");
  expect(asked.searchParams.get("offset")).toBe("-1");
  const where = asked.searchParams.get("where")!;
  expect(where).toContain(loc);
  expect(where).toContain('"deleted_at" IS NULL');
  // A viewer of a location that hides money gets no custom fields at all in proxy mode.
  expect(asked.searchParams.get("columns")).not.toContain('"fields"');
});

test("SH8 protocol parameters pass through; nothing else does, and a client where is refused", async () => {
  seen = [];
  const res = await as.owner.get(`/api/v1/sync/shape/things?offset=5_0&handle=h-1&live=true&cursor=7&foo=bar`);
  expect(res.status).toBe(200);
  const asked = seen[0]!;
  expect(Object.fromEntries(asked.searchParams)).toMatchObject({ offset: "5_0", handle: "h-1", live: "true", cursor: "7" });
  expect(asked.searchParams.has("foo")).toBe(false);
  expect(asked.searchParams.get("columns")).toContain('"fields"');
  expect(res.headers.get("vary")).toBe("Cookie, Authorization");
  expect(res.headers.get("retry-after")).toBe("3");
  const refused = await as.owner.get(`/api/v1/sync/shape/things?offset=-1&where=1=1`);
  expect(refused.status).toBe(400);
  expect(seen.length).toBe(1);
});

test("SH8 a 409 must-refetch passes through with its new handle", async () => {
  reply409 = true;
  const res = await as.owner.get(`/api/v1/sync/shape/things?offset=5_0&handle=h-1`);
  reply409 = false;
  expect(res.status).toBe(409);
  expect(res.headers.get("electric-handle")).toBe("h-2");
  expect(res.body).toEqual([{ headers: { control: "must-refetch" } }]);
});

test("SH8 an outsider's where names none of the location's ids", async () => {
  seen = [];
  await as.outsider.get(`/api/v1/sync/shape/things?offset=-1`);
  expect(seen[0]!.searchParams.get("where")).not.toContain(loc);
});

test("SH8 a registry shape is scoped by the owner account of the readable locations, not by location ids", async () => {
  const { rows: sqlRows, sql } = await import("../../server/db/client.js");
  const [account] = await sqlRows<{ id: string }>(svc.database.db, sql`SELECT account_id AS id FROM locations WHERE id = ${loc}`);
  seen = [];
  await as.viewer.get(`/api/v1/sync/shape/types?offset=-1`);
  const where = seen[0]!.searchParams.get("where")!;
  // The viewer's own account (their personal location) and the shared location's.
  expect(where).toMatch(new RegExp(`^"account_id" IN \\([^)]*'${account!.id}'`));
  expect(where).not.toContain(loc);
  seen = [];
  await as.outsider.get(`/api/v1/sync/shape/types?offset=-1`);
  expect(seen[0]!.searchParams.get("where")).not.toContain(account!.id);
});

test("SH8 SH2 a viewer who may not see money gets templates without their payload in proxy mode", async () => {
  seen = [];
  await as.viewer.get(`/api/v1/sync/shape/templates?offset=-1`);
  expect(seen[0]!.searchParams.get("columns")).not.toContain('"payload"');
  seen = [];
  await as.owner.get(`/api/v1/sync/shape/templates?offset=-1`);
  expect(seen[0]!.searchParams.get("columns")).toContain('"payload"');
});
