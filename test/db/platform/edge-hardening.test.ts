/**
 * The edge against hostile requests, through the real HTTP server: malformed percent-encoding,
 * bodies that are not JSON (or not there), JSON nested too deep, the security headers on every
 * answer, and log lines that keep the request's data out when the database fails.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { sharedDbTest as test } from "../../support/fixtures.js";
import { errorBodySchema } from "../../../shared/errors.js";
import type { Database } from "../../../server/db/client.js";
import { oauthGrants, things } from "../../../server/db/schema/index.js";
import { MAX_JSON_DEPTH } from "../../../server/http/edge.js";
import { grantAndCode } from "../../../server/oauth/grants.js";
import { type HttpClient, type TestService } from "../../support/app.js";

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: any;
}

/** A request with exactly these headers and bytes (plus the client's cookies and our Origin when a client is given). */
function send(
  base: string,
  method: string,
  path: string,
  opts: { client?: HttpClient; origin?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const h: Record<string, string> = { ...(opts.origin ? { origin: opts.origin } : {}), ...opts.headers };
  if (opts.client?.cookies.size) h.cookie = [...opts.client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  if (opts.body !== undefined) h["content-length"] = String(Buffer.byteLength(opts.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { method, headers: h, ...(opts.client ? { localAddress: opts.client.address } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

function expectError(res: { status: number; body: unknown }, status: number, code: string) {
  expect({ status: res.status, code: (res.body as any)?.error?.code }).toEqual({ status, code });
  const parsed = errorBodySchema.strict().parse(res.body);
  expect(parsed.error.message.length).toBeGreaterThan(0);
}

let database: Database;
let svc: TestService;
let alice: Awaited<ReturnType<TestService["signedIn"]>>;
let home: string;

test.beforeAll(async ({ database: db, serviceOn }) => {
  database = db;
  svc = await serviceOn();
  alice = await svc.signedIn("Alice");
  home = (await alice.get("/api/v1/me")).body.locations[0].id as string;
});

const origin = () => svc.config.publicUrl.origin;
const thingsNamed = async (name: string) => database.db.select({ id: things.id }).from(things).where(eq(things.name, name));
const thingCount = async () => (await database.db.select({ id: things.id }).from(things)).length;

describe("malformed percent-encoding", () => {
  const BAD = "%E0%A4%A";

  test("a path parameter that is not valid percent-encoding answers 400 validation_failed, signed in or not", async () => {
    expectError(await alice.get(`/api/v1/things/${BAD}`), 400, "validation_failed");
    expectError(await svc.client().get(`/api/v1/things/${BAD}`), 400, "validation_failed");
    expectError(await alice.patch(`/api/v1/things/${BAD}`, { name: "x", rowVersion: 1 }), 400, "validation_failed");
  });

  test("the library's update-user without a body answers 400 validation_failed (it read none as undefined: 500), anonymous or signed in", async () => {
    for (const client of [undefined, alice]) {
      expectError(await send(svc.url, "POST", "/api/v1/auth/update-user", { ...(client ? { client } : {}), origin: origin() }), 400, "validation_failed");
      expectError(
        await send(svc.url, "POST", "/api/v1/auth/update-user", {
          ...(client ? { client } : {}),
          origin: origin(),
          headers: { "content-type": "application/json" },
          body: "",
        }),
        400,
        "validation_failed",
      );
    }
  });

  test("a malformed path under the authentication library's mount answers 400 with our error body", async () => {
    expectError(await svc.client().get(`/api/v1/auth/${BAD}`), 400, "validation_failed");
    expectError(await svc.client().post(`/api/v1/auth/sign-in/${BAD}`, { email: "a@example.test", password: "x" }), 400, "validation_failed");
  });

  test("a malformed query string is read leniently: the list answers 200", async () => {
    const res = await alice.get(`/api/v1/locations/${home}/things?q=${BAD}`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
  });
});

describe("requests Node's HTTP parser refuses", () => {
  test("a request line and headers past Node's limit (a megabyte of query) answer 431 in our error body", async () => {
    const res = await send(svc.url, "GET", `/api/v1/me?q=${"a".repeat(1024 * 1024)}`, { client: alice });
    expectError(res, 431, "payload_too_large");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  test("bytes that are not HTTP answer 400 validation_failed in our error body", async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(svc.url);
      const socket = connect(Number(url.port), url.hostname, () => socket.write("HELLO THERE\r\n\r\n"));
      let data = "";
      socket.setEncoding("utf8");
      socket.on("data", (d: string) => (data += d));
      socket.on("end", () => resolve(data));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expectError({ status: 400, body: JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) }, 400, "validation_failed");
  });
});

describe("bodies are JSON or nothing", () => {
  const create = `/api/v1/locations/`;
  const createPath = () => `${create}${home}/things`;

  test.each([
    ["text/plain", "name=Drill"],
    ["application/x-www-form-urlencoded", "name=Drill"],
    ["multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nDrill\r\n--x--\r\n'],
  ])("a %s body on POST .../things is refused with 415 unsupported_media_type and creates nothing", async (type, body) => {
    const before = await thingCount();
    expectError(
      await send(svc.url, "POST", createPath(), { client: alice, origin: origin(), headers: { "content-type": type }, body }),
      415,
      "unsupported_media_type",
    );
    expect(await thingCount()).toBe(before);
  });

  test("a JSON body without a Content-Type is refused with 415 and creates nothing", async () => {
    const before = await thingCount();
    expectError(
      await send(svc.url, "POST", createPath(), { client: alice, origin: origin(), body: JSON.stringify({ name: "Untyped" }) }),
      415,
      "unsupported_media_type",
    );
    expect(await thingCount()).toBe(before);
  });

  test("a POST without any body on a route that takes one answers 400 validation_failed and creates nothing", async () => {
    const before = await thingCount();
    expectError(await send(svc.url, "POST", createPath(), { client: alice, origin: origin() }), 400, "validation_failed");
    // A JSON Content-Type with zero bytes is no body either: an empty string is not a JSON document.
    expectError(
      await send(svc.url, "POST", createPath(), { client: alice, origin: origin(), headers: { "content-type": "application/json" }, body: "" }),
      400,
      "validation_failed",
    );
    expect(await thingCount()).toBe(before);
  });

  test("a JSON body in another charset than UTF-8 is refused with 415", async () => {
    const body = Buffer.from(JSON.stringify({ name: "Wide" }), "utf16le");
    expectError(
      await send(svc.url, "POST", createPath(), { client: alice, origin: origin(), headers: { "content-type": "application/json; charset=utf-16le" }, body }),
      415,
      "unsupported_media_type",
    );
    expect(await thingsNamed("Wide")).toEqual([]);
  });

  test("a JSON body still creates the thing", async () => {
    const res = await send(svc.url, "POST", createPath(), {
      client: alice,
      origin: origin(),
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ name: "Typed drill" }),
    });
    expect(res.status).toBe(201);
    expect(await thingsNamed("Typed drill")).toHaveLength(1);
  });

  test("routes that take no body work with none, and refuse a body that is not JSON", async () => {
    const token = await alice.post("/api/v1/tokens", { name: "script", scope: "read", locationIds: [home] });
    expect(token.status).toBe(201);
    const other = await alice.post("/api/v1/tokens", { name: "other", scope: "read", locationIds: [home] });
    expectError(
      await send(svc.url, "DELETE", `/api/v1/tokens/${other.body.id}`, {
        client: alice,
        origin: origin(),
        headers: { "content-type": "text/plain" },
        body: "please",
      }),
      415,
      "unsupported_media_type",
    );
    const revoked = await send(svc.url, "DELETE", `/api/v1/tokens/${token.body.id}`, { client: alice, origin: origin() });
    expect(revoked.status).toBe(200);
    expect(revoked.body.id).toBe(token.body.id);
  });

  test("the authentication library's routes take JSON only: a form sign-in is refused with 415 and signs nobody in", async () => {
    const c = svc.client();
    const form = `email=${encodeURIComponent(alice.email)}&password=${encodeURIComponent("correct horse battery")}`;
    const res = await send(svc.url, "POST", "/api/v1/auth/sign-in/email", {
      origin: origin(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    expectError(res, 415, "unsupported_media_type");
    expect(res.headers["set-cookie"]).toBeUndefined();
    // Sign-out with no body at all still works (the library reads none).
    expect((await send(svc.url, "POST", "/api/v1/auth/sign-out", { client: c, origin: origin() })).status).toBe(200);
  });

  test("an upload takes the file's raw bytes in its own media type", async () => {
    const png = Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.from("not really pixels")]);
    const res = await send(svc.url, "POST", `/api/v1/files?locationId=${home}`, {
      client: alice,
      origin: origin(),
      headers: { "content-type": "image/png" },
      body: png,
    });
    expect(res.status).toBe(201);
    expect(res.body.mime).toBe("image/png");
    const octets = await send(svc.url, "POST", `/api/v1/files?locationId=${home}`, {
      client: alice,
      origin: origin(),
      headers: { "content-type": "application/octet-stream" },
      body: png,
    });
    expect(octets.status).toBe(201);
  });
});

describe("JSON depth", () => {
  const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
  const DEEPER = `The body nests deeper than ${MAX_JSON_DEPTH} levels.`;

  test("a body nested 10,000 levels deep on a signed-in route answers 400 validation_failed and creates nothing", async () => {
    const before = await thingCount();
    const res = await send(svc.url, "POST", `/api/v1/locations/${home}/things`, {
      client: alice,
      origin: origin(),
      headers: { "content-type": "application/json" },
      body: `{"name":"Deep","fields":${deep(10_000)}}`,
    });
    expectError(res, 400, "validation_failed");
    expect(res.body.error.message).toBe(DEEPER);
    expect(await thingCount()).toBe(before);
    const push = await send(svc.url, "POST", "/api/v1/sync/push", {
      client: alice,
      origin: origin(),
      headers: { "content-type": "application/json" },
      body: deep(10_000),
    });
    expectError(push, 400, "validation_failed");
    expect(push.body.error.message).toBe(DEEPER);
  });

  test("10,000 [ on the library's sign-in answers 400 with our error body", async () => {
    const res = await send(svc.url, "POST", "/api/v1/auth/sign-in/email", {
      origin: origin(),
      headers: { "content-type": "application/json" },
      body: "[".repeat(10_000),
    });
    expectError(res, 400, "validation_failed");
    expect(res.body.error.message).toBe(DEEPER);
  });

  test(`${MAX_JSON_DEPTH} levels are read (and fail validation on their own terms); one more is refused`, async () => {
    const at = (levels: number) => `{"name":${deep(levels - 1)}}`;
    const ok = await send(svc.url, "POST", `/api/v1/locations/${home}/things`, {
      client: alice,
      origin: origin(),
      headers: { "content-type": "application/json" },
      body: at(MAX_JSON_DEPTH),
    });
    expectError(ok, 400, "validation_failed");
    expect(ok.body.error.message).toMatch(/^body\.name/);
    const over = await send(svc.url, "POST", `/api/v1/locations/${home}/things`, {
      client: alice,
      origin: origin(),
      headers: { "content-type": "application/json" },
      body: at(MAX_JSON_DEPTH + 1),
    });
    expect(over.body.error.message).toBe(DEEPER);
  });

  test("brackets, quotes and backslashes inside strings do not count as nesting", async () => {
    const name = `[[[{{{ \\" ${"[".repeat(100)} \\\\`;
    const res = await send(svc.url, "POST", `/api/v1/locations/${home}/things`, {
      client: alice,
      origin: origin(),
      headers: { "content-type": "application/json" },
      body: `{"name":"${name}"}`,
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(JSON.parse(`"${name}"`));
  });

  test("an MCP call nested 10,000 levels deep answers 400 before the MCP server sees it", async ({ serviceOn }) => {
    const https = await serviceOn({ SVC_PUBLIC_URL: "https://inventory.example" });
    try {
      const oauth = https.services.oauth!;
      const clientId = "https://client.example/app.json";
      await grantAndCode(
        database.db,
        { userId: alice.userId, clientName: "Deep client", scopes: ["svc:read"], locationIds: [home], mfaProven: false },
        { clientId, redirectUri: "https://client.example/cb", codeChallenge: "x".repeat(43), resource: oauth.resource },
      );
      const [grant] = await database.db.select({ id: oauthGrants.id }).from(oauthGrants).where(eq(oauthGrants.clientName, "Deep client"));
      const token = await oauth.tokens.issue({ sub: alice.userId, clientId, scope: "svc:read", grantId: grant!.id });
      const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_locations","arguments":{"x":${deep(10_000)}}}}`;
      const res = await send(https.url, "POST", "/mcp", {
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body,
      });
      expectError(res, 400, "validation_failed");
      expect(res.body.error.message).toBe(DEEPER);
    } finally {
      await https.close();
    }
  });
});

describe("forms where OAuth requires them", () => {
  test("the OAuth token endpoint and the consent form still read application/x-www-form-urlencoded", async ({ serviceOn }) => {
    const https = await serviceOn({ SVC_PUBLIC_URL: "https://inventory.example" });
    try {
      const form =
        "grant_type=authorization_code&code=nope&redirect_uri=https%3A%2F%2Fclient.example%2Fcb&client_id=https%3A%2F%2Fclient.example%2Fapp.json&code_verifier=" +
        "v".repeat(43) +
        "&resource=" +
        encodeURIComponent(`${https.config.publicUrl.origin}/mcp`);
      const token = await send(https.url, "POST", "/oauth/token", { headers: { "content-type": "application/x-www-form-urlencoded" }, body: form });
      expect(token.status).toBe(400);
      expect(token.body).toMatchObject({ error: "invalid_grant" });
      const c = await https.signedIn("Consenting");
      const consent = await send(https.url, "POST", "/oauth/authorize", {
        client: c,
        origin: https.config.publicUrl.origin,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "decision=allow",
      });
      expect(consent.status).toBe(400);
      expect(consent.headers["content-type"]).toMatch(/^text\/html/);
      expect(consent.text).toContain("names no client_id");
    } finally {
      await https.close();
    }
  });
});

describe("security headers", () => {
  const csp = (res: RawResponse) => String(res.headers["content-security-policy"] ?? "");

  function expectSecurityHeaders(res: RawResponse) {
    expect(csp(res)).toContain("default-src 'self'");
    expect(csp(res)).toContain("script-src 'self'");
    expect(csp(res)).toContain("frame-ancestors 'none'");
    expect(csp(res)).not.toContain("unsafe-inline");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["x-frame-options"]).toBe("DENY");
  }

  test("an API answer, an error answer and /health carry CSP, nosniff and Referrer-Policy; no HSTS over http", async () => {
    const ok = await send(svc.url, "GET", "/api/v1/me", { client: alice });
    expect(ok.status).toBe(200);
    const unauthenticated = await send(svc.url, "GET", "/api/v1/me");
    expectError(unauthenticated, 401, "unauthenticated");
    const missing = await send(svc.url, "GET", "/api/v1/no-such-route");
    expectError(missing, 404, "not_found");
    const refused = await send(svc.url, "POST", "/api/v1/auth/sign-up", {
      client: alice,
      origin: "https://evil.example",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expectError(refused, 403, "forbidden");
    for (const res of [ok, unauthenticated, missing, refused, await send(svc.url, "GET", "/health")]) {
      expectSecurityHeaders(res);
      expect(res.headers["strict-transport-security"]).toBeUndefined();
      expect(csp(res)).not.toContain("upgrade-insecure-requests");
    }
  });

  test("the app's index carries the app's CSP", async ({ serviceOn }) => {
    const dir = mkdtempSync(path.join(tmpdir(), "svc-client-"));
    writeFileSync(
      path.join(dir, "index.html"),
      '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>',
    );
    const withApp = await serviceOn({ SVC_CLIENT_DIR: dir });
    try {
      for (const page of ["/", "/l/anything/things"]) {
        const res = await send(withApp.url, "GET", page, { headers: { accept: "text/html" } });
        expect(res.status).toBe(200);
        expect(res.text).toContain('<div id="root">');
        expectSecurityHeaders(res);
        expect(csp(res)).toContain("worker-src 'self'");
        expect(csp(res)).toContain("img-src 'self' data: blob:");
      }
    } finally {
      await withApp.close();
    }
  });

  test("a file download keeps its stricter CSP", async () => {
    const png = Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.from("pixels")]);
    const up = await send(svc.url, "POST", `/api/v1/files?locationId=${home}`, {
      client: alice,
      origin: origin(),
      headers: { "content-type": "image/png" },
      body: png,
    });
    expect(up.status).toBe(201);
    const down = await send(svc.url, "GET", `/api/v1/files/${up.body.id}`, { client: alice });
    expect(down.status).toBe(200);
    expect(csp(down)).toBe("default-src 'none'; sandbox");
    expect(down.headers["x-content-type-options"]).toBe("nosniff");
  });

  test("over https, every answer carries HSTS and the CSP upgrades insecure requests", async ({ serviceOn }) => {
    const https = await serviceOn({ SVC_PUBLIC_URL: "https://inventory.example" });
    try {
      for (const res of [await send(https.url, "GET", "/health"), await send(https.url, "GET", "/api/v1/me")]) {
        expectSecurityHeaders(res);
        expect(res.headers["strict-transport-security"]).toBe("max-age=31536000");
        expect(csp(res)).toContain("upgrade-insecure-requests");
      }
    } finally {
      await https.close();
    }
  });
});

describe("log lines keep request data out", () => {
  test("a database failure logs its SQLSTATE and the query's name, never the values sent or the SQL text", async ({ serviceOn }) => {
    const lines: string[] = [];
    const logged = await serviceOn({}, { log: { write: (line: string) => void lines.push(line) } });
    const bob = await logged.signedIn("Bob Logged");
    const loc = (await bob.get("/api/v1/me")).body.locations[0].id as string;
    // The database refuses the insert the way a replica gone read-only would (SQLSTATE 25006), and
    // quotes the row in its detail, as PostgreSQL's own errors quote the key that collided.
    await database.db.execute(
      sql.raw(`CREATE FUNCTION probe_refuse_things() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'cannot execute INSERT in a read-only transaction' USING ERRCODE = '25006', DETAIL = 'row ' || NEW.name; END $$`),
    );
    await database.db.execute(sql.raw(`CREATE TRIGGER probe_refuse_things BEFORE INSERT ON things FOR EACH ROW EXECUTE FUNCTION probe_refuse_things()`));
    try {
      const id = uuidv7();
      const name = `Zebra-${uuidv7()}`;
      const res = await bob.post(`/api/v1/locations/${loc}/things`, { id, name, description: bob.email });
      expectError(res, 500, "internal");
      const log = lines.join("");
      const failure = lines.map((l) => JSON.parse(l) as { msg?: string; err?: Record<string, unknown> }).find((l) => l.msg === "unhandled error");
      expect(failure?.err).toMatchObject({ code: "25006", query: expect.stringMatching(/^insert things\b/) });
      // The request line names its path (the location id is in it), never the body's values.
      for (const value of [name, id, bob.userId, bob.email, "read-only transaction", "params"]) expect(log).not.toContain(value);
      expect(log).not.toMatch(/insert into/i);
    } finally {
      await database.db.execute(sql.raw(`DROP TRIGGER probe_refuse_things ON things`));
      await database.db.execute(sql.raw(`DROP FUNCTION probe_refuse_things()`));
      await logged.close();
    }
  });
});
