/**
 * Holes a hostile probe found in push and file serving (trust issue, part 1): internal commands
 * through push, text the database cannot keep, args no op can have, and the same batch twice at once.
 */
import { connect } from "node:net";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { v7 as uuidv7 } from "uuid";
import { inboxItemSchema } from "../../../shared/inbox.js";
import { pageOf } from "../../../shared/paging.js";
import { MAX_ARGS_DEPTH, pushResponseSchema } from "../../../sync/protocol.js";
import { rows, sql } from "../../../server/db/client.js";
import { type TestService } from "../../support/app.js";
import { locationWithRoles, type Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

let loc: string;
let as: Awaited<ReturnType<typeof locationWithRoles>>["as"];
let otherLoc: string;
let other: Client;

test.beforeAll(async ({ svc }) => {
  ({ locationId: loc, as } = await locationWithRoles(svc));
  other = await svc.signedIn("Tess Tenant");
  otherLoc = (await other.get("/api/v1/me")).body.locations[0].id;
});

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const cookie = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

async function upload(svc: TestService, c: Client, locationId: string, bytes: Buffer) {
  const res = await fetch(`${svc.url}/api/v1/files?locationId=${locationId}`, {
    method: "POST",
    headers: { origin: svc.config.publicUrl.origin, cookie: cookie(c), "content-type": "application/octet-stream" },
    body: new Uint8Array(bytes),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
}

const count = async (svc: TestService, table: string, where = sql`true`) =>
  (await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`))[0]!.n;
const results = (body: unknown) => pushResponseSchema.parse(body).results;
const dropItems = async (c: Client, locationId = loc) =>
  pageOf(inboxItemSchema).parse((await c.get(`/api/v1/inbox?locationId=${locationId}&kind=sync_drop`)).body).items;

describe("only the ops of the sync protocol can be pushed", () => {
  test("DR1 a pushed file.create pointing at another tenant's bytes is dropped as unknown_op; no file record, no download", async ({ svc }) => {
    // The other tenant's photo: its sha256 is all an attacker needs to name it.
    const theirs = await upload(svc, other, otherLoc, PNG);
    const [stored] = await rows<{ sha256: string }>(svc.database.db, sql`SELECT sha256 FROM files WHERE id = ${theirs.id}`);
    const stolenId = uuidv7();
    const res = await push(as.member, [
      op({ name: "file.create", locationId: loc, args: { id: stolenId, sha256: stored!.sha256, size: 10, mime: "image/png" } }),
      op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Still applied" } }),
    ]);
    expect(res.status).toBe(200);
    const [dropped, applied] = results(res.body);
    expect(dropped).toMatchObject({ status: "dropped", reason: "unknown_op" });
    expect(applied).toMatchObject({ status: "applied" });
    expect(await count(svc, "files", sql`id = ${stolenId}`)).toBe(0);
    expect((await as.member.get(`/api/v1/files/${stolenId}`)).status).toBe(404);
    // The person still sees what did not go through, with a reason the app can show.
    const item = (await dropItems(as.member)).find((i) => (i.syncDrop?.op as { id: string } | undefined)?.id === (res.body.results[0].id as string));
    expect(item?.syncDrop).toMatchObject({ reason: "unknown_op", message: expect.stringContaining("file.create") });
  });

  test("DR1 other internal commands (undo, location create, member changes) and made-up names are unknown_op too", async () => {
    const names = ["history.undo", "location.create", "location.update", "member.update", "member.remove", "no.such.op", "__proto__", "constructor"];
    const res = await push(
      as.owner,
      names.map((name) => op({ name, locationId: loc, args: { id: uuidv7() } })),
    );
    expect(res.status).toBe(200);
    expect(results(res.body).map((r) => (r.status === "dropped" ? r.reason : r.status))).toEqual(names.map(() => "unknown_op"));
  });
});

describe("files are served as stored", () => {
  test("size and kind come from the stored bytes, not the record: a keep-alive connection reads exactly one answer", async ({ svc }) => {
    const mine = await upload(svc, as.member, loc, PNG);
    // A record that lies about its bytes (as one made through the old push path could).
    await svc.database.db.execute(sql`UPDATE files SET size = 10, mime = 'application/pdf' WHERE id = ${mine.id}`);
    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(svc.url);
      const socket = connect(Number(url.port), url.hostname, () => {
        const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nCookie: ${cookie(as.member)}\r\nConnection: keep-alive\r\n\r\n`;
        socket.write(get(`/api/v1/files/${mine.id}`) + get("/health"));
      });
      let data = "";
      socket.setEncoding("latin1");
      socket.on("data", (d: string) => {
        data += d;
        if (data.includes('{"status":"ok"}')) {
          socket.end();
          resolve(data);
        }
      });
      socket.on("error", reject);
      setTimeout(() => reject(new Error(`no second answer; got ${JSON.stringify(data.slice(0, 300))}`)), 5000).unref();
    });
    const [first, second] = raw.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    expect(first).toMatch(new RegExp(`content-length: ${PNG.length}\\r\\n`, "i"));
    expect(first).toMatch(/content-type: image\/png/i);
    expect(first!.slice(first!.indexOf("\r\n\r\n") + 4)).toBe(PNG.toString("latin1"));
    expect(second).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe("text the database cannot keep", () => {
  const bad = { nul: "Drill\u0000bit", lone: "Drill \ud800 bit", trailing: "\udc00" };

  test.for(Object.entries(bad))("REST: a name with %s is 400 validation_failed naming the field, and nothing is created", async ([, name], { svc }) => {
    const before = await count(svc, "things");
    const res = await as.member.post(`/api/v1/locations/${loc}/things`, { name });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", message: expect.stringContaining("body.name") });
    expect(await count(svc, "things")).toBe(before);
  });

  test("REST: a NUL in a query or in a custom field value nested in a record is refused too", async () => {
    expect((await as.member.get(`/api/v1/locations/${loc}/things?q=a%00b`)).status).toBe(400);
    const res = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Ok", fields: { serial: { parts: ["x\u0000"] } } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("body.fields.serial.parts.0");
  });

  test("DR2 PU8 an op with NUL or a lone surrogate is dropped as invalid and kept whole (U+FFFD in place); the good ops of the batch apply", async () => {
    const good = uuidv7();
    const ops = [
      op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: bad.nul } }),
      op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "ok", fields: { note: bad.lone } } }),
      op({ name: "thing.create", locationId: loc, args: { id: good, name: "Good one" } }),
      // Not even a key the schema knows: refused by the schema, and still storable as a drop.
      op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), ["we\u0000ird"]: bad.trailing } }),
    ];
    const res = await push(as.member, ops);
    expect(res.status).toBe(200);
    expect(results(res.body).map((r) => (r.status === "dropped" ? r.reason : r.status))).toEqual(["invalid", "invalid", "applied", "invalid"]);
    expect((await as.member.get(`/api/v1/things/${good}`)).body).toMatchObject({ name: "Good one" });
    const items = await dropItems(as.member);
    const kept = (i: number) =>
      items.find((it) => (it.syncDrop?.op as { id: string } | undefined)?.id === ops[i]!.id)?.syncDrop?.op as { args: Record<string, unknown> } | undefined;
    expect(kept(0)?.args.name).toBe("Drill\uFFFDbit");
    expect(kept(1)?.args.fields).toEqual({ note: "Drill \uFFFD bit" });
    expect(kept(3)?.args["we\uFFFDird"]).toBe("\uFFFD");
  });

  test("PU3 an op name or client id with NUL refuses the batch with 400 naming where", async () => {
    const res = await push(as.member, [op({ name: "thing.create\u0000", locationId: loc, args: { id: uuidv7() } })]);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("ops.0.name");
    const res2 = await push(as.member, [op({ name: "thing.create", locationId: loc, args: { id: uuidv7() } })], "dev\u0000ice");
    expect(res2.status).toBe(400);
  });
});

describe("args no op can have", () => {
  const nest = (levels: number): unknown => {
    let v: unknown = "deep";
    for (let i = 0; i < levels; i++) v = { a: v };
    return v;
  };

  test("PU3 args nested deeper than the cap are refused as a batch with 400 naming the op; nothing is applied", async ({ svc }) => {
    const deep = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), fields: { x: nest(MAX_ARGS_DEPTH) } } });
    const fine = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Never applied" } });
    const before = await count(svc, "things");
    const res = await push(as.member, [fine, deep]);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", message: expect.stringContaining(deep.id) });
    expect(res.body.error.message).toContain("ops.1.args");
    expect(await count(svc, "things")).toBe(before);
  });

  test("PU3 args nested 10,000 levels deep answer 400, not 500", async ({ svc }) => {
    const body = `{"clientId":"d","protocol":1,"ops":[{"id":"${uuidv7()}","name":"thing.create","locationId":"${loc}","at":"${new Date().toISOString()}","args":${"[".repeat(10_000)}${"]".repeat(10_000)}}]}`;
    const raw = await fetch(`${svc.url}/api/v1/sync/push`, {
      method: "POST",
      headers: { origin: svc.config.publicUrl.origin, cookie: cookie(as.member), "content-type": "application/json" },
      body,
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { error: { code: string } }).error.code).toBe("validation_failed");
  });

  test("PU3 args longer than the cap are refused with 400 naming the op", async () => {
    const big = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), fields: { blob: "x".repeat(70_000) } } });
    const res = await push(as.member, [big]);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(big.id);
  });
});

describe("PU9 the same batch pushed twice at once", () => {
  test("applies once: every answer is 200, each op applied in one and duplicate in the other", async ({ svc }) => {
    const ids = Array.from({ length: 20 }, () => uuidv7());
    const ops = ids.map((id) => op({ name: "thing.create", locationId: loc, args: { id, name: `Twin ${id.slice(-4)}` } }));
    for (let round = 0; round < 3; round++) {
      const batch =
        round === 0
          ? ops
          : ids.map((id, i) => op({ name: "thing.update", locationId: loc, args: { id, patch: { colour: `c${round}-${i}` } }, baseVersion: round }));
      const answers = await Promise.all([push(as.member, batch), push(as.member, batch), push(as.member, batch)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      const statuses = answers.map((a) => results(a.body).map((r) => r.status));
      for (let i = 0; i < batch.length; i++) {
        const column = statuses.map((s) => s[i]);
        expect(column.filter((s) => s === "applied")).toHaveLength(1);
        expect(column.filter((s) => s === "duplicate")).toHaveLength(2);
      }
    }
    expect(await count(svc, "things", sql`id = ANY(${sql.raw(`ARRAY[${ids.map((i) => `'${i}'`).join(",")}]::uuid[]`)}) AND row_version = 3`)).toBe(ids.length);
  });
});
