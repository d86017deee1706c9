/**
 * Cross-tenant access, generated from the route table (trust issue, part 3): tenant A has a real
 * row of every kind the routes name; tenant B calls every route that takes an id (in its path,
 * query or body, and every pushed op of sync/ops.ts) with one of A's ids, and again with an id
 * nobody has. The two answers must be the same (status, code, message, and for an answer that
 * went through, the same body and the same kind of change), and nothing of A's may change. A
 * route naming an id of a kind this file cannot make fails it, so a new kind is added on purpose.
 * MCP tools are called the same way over B's connection. HOSTILE_TRACE=1 prints every attempt.
 */
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { afterAll, expect } from "vitest";
import { sharedDbTest as test } from "../../support/fixtures.js";
import { CODE_ALPHABET } from "../../../shared/codes.js";
import { opArgs, OP_NAMES } from "../../../sync/ops.js";
import { PROTOCOL } from "../../../sync/protocol.js";
import { rows, sql, type Database } from "../../../server/db/client.js";
import { type TestService } from "../../support/app.js";
import {
  delta,
  changedMetrics,
  exampleOf,
  idKindOf,
  isUuid,
  mainOf,
  MCP_TOOL_TARGETS,
  mcpCall,
  mcpToken,
  opTargetKind,
  operationsOf,
  PNG,
  scopedSnapshotter,
  seedTenant,
  sendRaw,
  snapshotter,
  type IdKind,
  type IdRef,
  type Operation,
  type RawResponse,
  type Schema,
  type Snapshot,
  type Tenant,
} from "../../support/hostile.js";

let database: Database;
let svc: TestService;
/** The same database over https, where /mcp is served. */
let https: TestService;
let A: Tenant;
let B: Tenant;
let snap: () => Promise<Snapshot>;
let snapA: () => Promise<Snapshot>;

test.beforeAll(async ({ database: db, serviceOn }) => {
  database = db;
  svc = await serviceOn();
  https = await serviceOn({ SVC_PUBLIC_URL: "https://inventory.example" });
  A = await seedTenant(svc, "Alpha");
  B = await seedTenant(svc, "Bravo");
  snap = await snapshotter(database.db);
  snapA = await scopedSnapshotter(database.db, A.scope);
});
afterAll(async () => {
  const tools = [...stats.routes].filter((r) => r.startsWith("MCP ")).length;
  console.log(
    `cross-tenant (${svc?.database.kind}): ${stats.routes.size - tools} routes and ${tools} MCP tools covered, ${stats.attempts} attempts, ${stats.same} answered as for an unknown id${stats.same === stats.attempts ? " (all)" : ""}`,
  );
});

/** Path parameters that name no row. */
const NOT_IDS = new Set(["GET /api/v1/sync/shape/{name}:name", "PUT /api/v1/me/hints/{key}:key"]);
/** Shape names and hint keys are not ids: the one B reads, the hint B marks (each person's own). */
const PATH_VALUES: Record<string, string> = { "GET /api/v1/sync/shape/{name}:name": "things", "PUT /api/v1/me/hints/{key}:key": "welcome" };
/**
 * Routes whose body is not JSON: an upload is the file's bytes (not those of B's own file, so
 * that naming B's own file's id is a conflict too, not the same upload again).
 */
const RAW_BODIES: Record<string, { type: string; body: Buffer }> = {
  "POST /api/v1/files": { type: "image/png", body: Buffer.concat([PNG, Buffer.from("another picture")]) },
};
/** Fields a body may hold one of at most (a thing is in a place or in a container). */
const EXCLUSIVE = [
  ["placeId", "containerId"],
  // A box check names each thing in one list only: B's one thing goes in one of them.
  ["seen", "notHere", "movedIn"],
];
const PUSH = "POST /api/v1/sync/push";

/** One id a route takes: where it goes and what it names. */
interface IdParam {
  where: "path" | "query" | "body";
  name: string;
  /** Body path of the field (for body ids). */
  at: (string | number)[];
  /** An array of ids (tokens' locationIds): the attempt sends a list of one. */
  list: boolean;
  ref: IdRef | undefined;
}

/** Every uuid field of a body schema, three levels down. */
function uuidFields(s: Schema, root: Schema, at: (string | number)[] = [], depth = 0): IdParam[] {
  const m = mainOf(s, root);
  if (depth > 3) return [];
  const out: IdParam[] = [];
  for (const [k, p] of Object.entries((m.properties ?? {}) as Record<string, Schema>)) {
    const f = mainOf(p, root);
    if (isUuid(f)) out.push({ where: "body", name: k, at: [...at, k], list: false, ref: undefined });
    else if (f.type === "array" && isUuid(mainOf(f.items ?? {}, root))) out.push({ where: "body", name: k, at: [...at, k], list: true, ref: undefined });
    else out.push(...uuidFields(f, root, [...at, k], depth + 1));
  }
  return out;
}

function idParamsOf(op: Operation): IdParam[] {
  const params: IdParam[] = [];
  for (const p of op.pathParams)
    if (!NOT_IDS.has(`${op.key}:${p}`)) params.push({ where: "path", name: p, at: [], list: false, ref: idKindOf(op.method, op.path, "path", p) });
  for (const q of op.query)
    if (isUuid(q.schema)) params.push({ where: "query", name: q.name, at: [], list: false, ref: idKindOf(op.method, op.path, "query", q.name) });
  if (op.body && op.key !== PUSH) for (const f of uuidFields(op.body, op.body)) params.push({ ...f, ref: idKindOf(op.method, op.path, "body", f.name) });
  return params;
}

// ---------------------------------------------------------------------------------------------
// Requests

interface Built {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** A copy of `body` with the value at `at` replaced (parents made as needed). */
function setAt(body: unknown, at: (string | number)[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body ?? {}) as Record<string | number, unknown>;
  let node = copy;
  at.forEach((k, i) => {
    if (i === at.length - 1) node[k] = value;
    else node = (node[k] ??= {}) as Record<string | number, unknown>;
  });
  for (const group of EXCLUSIVE)
    if (group.includes(String(at.at(-1)))) for (const other of group) if (other !== at.at(-1) && at.length === 1) delete copy[other];
  return copy;
}

/** An id nobody has, of a kind: a short code is six characters of its alphabet, not a uuid (which would be refused as malformed). */
const nobodys = (kind: IdKind) =>
  kind === "code" ? Array.from({ length: 6 }, () => CODE_ALPHABET[Math.floor(Math.random() * CODE_ALPHABET.length)]).join("") : uuidv7();

/** B's own id of a kind (a fresh one where the route makes the row). */
const ownId = (ref: IdRef) => (ref.fresh ? uuidv7() : B.ids[ref.kind]);

/** B's valid request to `op`, before one id is swapped: B's ids everywhere, made once per attempt so both calls differ in that id alone. */
interface Base {
  path: Record<string, string>;
  query: [string, string][];
  body?: Record<string, unknown>;
  /** Body fields holding a device-made id for the row the request makes: new in each call, so one call's row is no conflict for the other's. */
  fresh: (string | number)[][];
}

/** The body paths of fresh ids (a device-made id for the row the request makes). */
function freshFieldsOf(op: Operation): (string | number)[][] {
  return op.body
    ? uuidFields(op.body, op.body)
        .filter((f) => idKindOf(op.method, op.path, "body", f.name)?.fresh)
        .map((f) => f.at)
    : [];
}

function baseOf(op: Operation): Base {
  const path: Record<string, string> = {};
  for (const p of op.pathParams) path[p] = PATH_VALUES[`${op.key}:${p}`] ?? ownId(idKindOf(op.method, op.path, "path", p)!);
  const query: [string, string][] = [];
  for (const q of op.query) {
    if (!q.required) continue;
    query.push([q.name, isUuid(q.schema) ? ownId(idKindOf(op.method, op.path, "query", q.name)!) : q.name === "offset" ? "-1" : "1"]);
  }
  if (!op.body || RAW_BODIES[op.key]) return { path, query, fresh: [] };
  const body = exampleOf(op.body, "body", { root: op.body, rowVersion: 1, idFor: (name) => ownId(idKindOf(op.method, op.path, "body", name)!) });
  return { path, query, body: body as Record<string, unknown>, fresh: freshFieldsOf(op) };
}

/** `body` with a new id in each of its fresh fields that holds one (other than those in `keep`), and the ids' placeholders. */
function renewFresh(
  body: Record<string, unknown>,
  fresh: (string | number)[][],
  keep: (string | number)[][],
): { body: Record<string, unknown>; replace: [string, string][] } {
  let out = body;
  const replace: [string, string][] = [];
  for (const at of fresh) {
    if (keep.some((k) => k.join(".") === at.join("."))) continue;
    const present = at.reduce<unknown>((node, k) => (node as Record<string | number, unknown> | undefined)?.[k], body);
    if (typeof present !== "string") continue;
    const id = uuidv7();
    out = setAt(out, at, id);
    replace.push([id, `<new ${at.join(".")}>`]);
  }
  return { body: out, replace };
}

/** The request with `override`'s ids swapped in, carrying the rowVersion of whichever row its path names. */
async function render(op: Operation, base: Base, override: Map<IdParam, string>): Promise<Built & { replace: [string, string][] }> {
  const path = { ...base.path };
  const query = new Map(base.query);
  const renewed = base.body
    ? renewFresh(
        base.body,
        base.fresh,
        [...override.keys()].map((p) => p.at),
      )
    : { body: undefined, replace: [] };
  let body = renewed.body;
  const replace = renewed.replace;
  for (const [p, value] of override) {
    if (p.where === "path") path[p.name] = value;
    else if (p.where === "query") query.set(p.name, value);
    else body = setAt(body, p.at, p.list ? [value] : value);
  }
  const url =
    op.path.replace(/\{(\w+)\}/g, (_m, p: string) => encodeURIComponent(path[p]!)) +
    (query.size ? `?${[...query].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}` : "");
  const raw = RAW_BODIES[op.key];
  if (raw) return { method: op.method, path: url, headers: { "content-type": raw.type }, body: raw.body, replace };
  if (!body) return { method: op.method, path: url, headers: {}, replace };
  const last = op.pathParams.at(-1);
  const target = last ? idKindOf(op.method, op.path, "path", last) : undefined;
  if ("rowVersion" in body && target && last) body = { ...body, rowVersion: await B.rowVersion(target.kind, path[last]!) };
  return { method: op.method, path: url, headers: { "content-type": "application/json" }, body: JSON.stringify(body), replace };
}

const send = (r: Built) =>
  sendRaw(svc, {
    method: r.method,
    path: r.path,
    headers: r.headers,
    ...(r.body !== undefined ? { body: r.body } : {}),
    cookies: B.owner.cookies,
    address: B.owner.address,
  });

// ---------------------------------------------------------------------------------------------
// Comparing the two answers

/** What differs between two calls by nature: times, transaction ids, versions, made-up ids of new rows. */
const VOLATILE = new Set(["txid", "eventId", "inboxItemId", "createdAt", "updatedAt", "at", "capturedAt", "lastSeenAt", "rowVersion", "batchId"]);

function stripVolatile(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripVolatile);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !VOLATILE.has(k))
        .map(([k, x]) => [k, stripVolatile(x)]),
    );
  return v;
}

/** The answer with the ids that differ between the two calls replaced by placeholders. */
function comparable(res: RawResponse, replace: [string, string][], extra: unknown): unknown {
  const swap = (text: string) => replace.reduce((t, [from, to]) => t.split(from).join(to), text);
  let body: unknown = swap(res.text);
  try {
    body = JSON.parse(body as string);
  } catch {
    /* not JSON: compared as text */
  }
  return {
    status: res.status,
    body: res.status < 400 ? stripVolatile(body) : body,
    ...(extra === undefined ? {} : { extra: JSON.parse(swap(JSON.stringify(stripVolatile(extra)))) as unknown }),
  };
}

/** For a push: the sync_drop item each dropped op became (what B's inbox shows about the row it named). */
async function dropItems(res: RawResponse): Promise<unknown> {
  const results = (res.body as { results?: { inboxItemId?: string }[] } | null)?.results;
  if (!results) return undefined;
  const ids = results.map((r) => r.inboxItemId).filter((x): x is string => !!x);
  if (!ids.length) return [];
  const found = await rows<{ id: string; location_id: string; payload: unknown }>(
    svc.database.db,
    sql`SELECT id, location_id, payload FROM inbox_items WHERE id IN ${sql.raw(`(${ids.map((i) => `'${i}'`).join(",")})`)}`,
  );
  return found.map((f) => ({ location: f.location_id === B.ids.location ? "B's" : f.location_id, payload: f.payload }));
}

// ---------------------------------------------------------------------------------------------

interface Outcome {
  route: string;
  param: string;
  problem: string;
}

const stats = { routes: new Set<string>(), attempts: 0, same: 0 };
const problems: Outcome[] = [];

/** Why the answer is a refusal of the request's shape (which makes an attempt test nothing), or null. */
function refusedAsInvalid(res: RawResponse): string | null {
  const b = res.body as {
    error?: { code?: unknown; details?: { issues?: unknown } };
    results?: { reason?: string }[];
    result?: { isError?: boolean; content?: { text?: string }[] };
  } | null;
  if (b?.error?.details?.issues) return JSON.stringify(b.error.details.issues);
  if (b?.results?.some((r) => r.reason === "invalid")) return JSON.stringify(b.results);
  if (b?.error?.code === -32602) return JSON.stringify(b.error);
  const text = b?.result?.isError ? (b.result.content?.[0]?.text ?? "") : "";
  return /^validation_failed|validation error/i.test(text) ? text : null;
}

interface Call {
  res: RawResponse;
  /** What else the call made that B can see (a push's sync_drop items). */
  extra?: unknown;
  /** Ids that differ between the two calls by construction, and their placeholders. */
  replace: [string, string][];
}

/**
 * One attempt: B's request with A's id, then the same request with an id nobody has (for a route
 * that makes a row with the id it is given: B's own row's id, which is just as taken). Both
 * answers and the changes each made must be alike, and A's rows must not change.
 */
async function attempt(route: string, param: string, withTheirs: () => Promise<Call>, withUnknown: () => Promise<Call>, opts: { fresh?: boolean } = {}) {
  stats.attempts++;
  const found: string[] = [];
  const a0 = await snapA();
  const s0 = await snap();
  const theirs = await withTheirs();
  const s1 = await snap();
  const unknown = await withUnknown();
  const s2 = await snap();
  const a2 = await snapA();
  for (const r of [theirs.res, unknown.res]) if (r.status >= 500) found.push(`status ${r.status}: ${r.text.slice(0, 200)}`);
  const invalid = refusedAsInvalid(unknown.res);
  if (invalid) found.push(`the request fails validation (${invalid.slice(0, 200)}): it tests nothing; make it valid`);
  // B's own row is B's to see: a drop naming it shows its name, one naming A's row the name B sent.
  const forget = (extra: unknown) =>
    (opts.fresh
      ? JSON.parse(JSON.stringify(extra ?? null, (k, v: unknown) => (k === "entity" && v && typeof v === "object" ? { ...v, name: "<name>" } : v)))
      : extra) as unknown;
  const them = JSON.stringify(comparable(theirs.res, theirs.replace, forget(theirs.extra)));
  const nobody = JSON.stringify(comparable(unknown.res, unknown.replace, forget(unknown.extra)));
  // A's rows are all named after A ("Alpha ..."): nothing B is answered may hold one.
  for (const text of [theirs.res.text, JSON.stringify(theirs.extra ?? null)])
    if (text.includes(A.name)) found.push(`B was shown A's data: ${text.slice(Math.max(0, text.indexOf(A.name) - 100), text.indexOf(A.name) + 100)}`);
  if (them !== nobody) found.push(`answers differ:\n   theirs:  ${them.slice(0, 700)}\n   unknown: ${nobody.slice(0, 700)}`);
  const changedA = changedMetrics(a0, a2);
  if (changedA.length) found.push(`A's rows changed: ${changedA.join(", ")}`);
  const dTheirs = JSON.stringify(delta(s0, s1));
  const dUnknown = JSON.stringify(delta(s1, s2));
  if (dTheirs !== dUnknown) found.push(`changes differ: theirs ${dTheirs}, unknown ${dUnknown}`);
  for (const problem of found) problems.push({ route, param, problem });
  if (!found.length) stats.same++;
  if (process.env.HOSTILE_TRACE) console.log(`TRACE ${route} ${param}: ${theirs.res.status} / ${unknown.res.status} ${theirs.res.text.slice(0, 100)}`);
}

// A sweep over every route and op, growing with the API: given the time the OpenAPI fuzz sweep has,
// so that a slow machine fails on a wrong answer, never on the clock (a timed-out attempt's late
// writes would then land in the next attempt's snapshot).
test("every route that takes an id answers B with A's id exactly as with an id nobody has, and changes nothing of A's", async () => {
  const doc = (await B.owner.get("/api/v1/openapi.json")).body;
  const ops = operationsOf(doc);
  expect(ops.length).toBeGreaterThan(40);
  const missing: string[] = [];
  for (const op of ops) {
    const params = idParamsOf(op);
    for (const p of params) if (!p.ref) missing.push(`${op.key}: ${p.where} ${p.name}`);
    if (op.key === PUSH || !params.length || params.some((p) => !p.ref)) continue;
    stats.routes.add(op.key);
    await B.renew();
    const attemptsOf: [string, Map<IdParam, string>, Map<IdParam, string>][] = params.map((p) => {
      const theirs = A.ids[p.ref!.kind];
      const unknown = p.ref!.fresh ? B.ids[p.ref!.kind] : nobodys(p.ref!.kind);
      return [`${p.where} ${p.name} (${p.ref!.kind})`, new Map([[p, theirs]]), new Map([[p, unknown]])];
    });
    // With several ids, all of A's at once too (A's location and A's member, say).
    if (params.length > 1)
      attemptsOf.push([
        `all ids (${params.map((p) => p.ref!.kind).join(", ")})`,
        new Map(params.map((p) => [p, A.ids[p.ref!.kind]])),
        new Map(params.map((p) => [p, p.ref!.fresh ? B.ids[p.ref!.kind] : nobodys(p.ref!.kind)])),
      ]);
    for (const [label, theirs, unknown] of attemptsOf) {
      const base = baseOf(op);
      const callWith = (ids: Map<IdParam, string>) => async (): Promise<Call> => {
        const request = await render(op, base, ids);
        return { res: await send(request), replace: [...ids].map(([p, id]): [string, string] => [id, `<${p.name}>`]).concat(request.replace) };
      };
      await attempt(op.key, label, callWith(theirs), callWith(unknown));
    }
  }
  expect(missing, "routes naming an id of a kind test/support/hostile.ts cannot make").toEqual([]);
  await pushAttempts();
  expectNoProblems();
}, 300_000);

function expectNoProblems() {
  const found = problems.splice(0);
  for (const p of found) console.log(`DIFF ${p.route} ${p.param}: ${p.problem}`);
  expect(found).toEqual([]);
}

/** Args the schema alone cannot make valid: a move names exactly one destination. */
const PUSH_ARGS: Record<string, () => Record<string, unknown>> = {
  "thing.move": () => ({ id: B.ids.thing, placeId: B.ids.place }),
  // Dated before B's thing was last seen, so that each of the two attempts changes the same: only its record.
  "boxcheck.record": () => ({ id: uuidv7(), containerId: B.ids.container, at: "2000-01-01T00:00:00Z", seen: [B.ids.thing] }),
  // B's thing's own code: the claim applies and changes nothing.
  "code.claim": () => ({ code: B.ids.code, kind: "thing", id: B.ids.thing }),
};

/** A new op of A's (each attempt needs one B has never pushed). */
async function theirOpId(): Promise<string> {
  const id = uuidv7();
  const res = await A.owner.post("/api/v1/sync/push", {
    clientId: "alpha-device",
    protocol: PROTOCOL,
    ops: [{ id, name: "thing.create", locationId: A.ids.location, at: new Date().toISOString(), args: { id: uuidv7(), name: "Alpha pushed" } }],
  });
  expect(res.body.results[0].status).toBe("applied");
  return id;
}

/** Every pushed op of sync/ops.ts, naming A's location, each of A's rows its args can name, or one of A's op ids. */
async function pushAttempts() {
  stats.routes.add(PUSH);
  const at = new Date().toISOString();
  // One of A's op ids: op ids are per person (sync/SPEC.md), so it is new to B and applies like any new id.
  const createWith = (opId: string) => async (): Promise<Call> => {
    const id = uuidv7();
    const res = await sendRaw(svc, {
      method: "POST",
      path: "/api/v1/sync/push",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        clientId: "bravo-device",
        protocol: PROTOCOL,
        ops: [{ id: opId, name: "thing.create", locationId: B.ids.location, at, args: { id, name: "Bravo pushed" } }],
      }),
      cookies: B.owner.cookies,
      address: B.owner.address,
    });
    return {
      res,
      replace: [
        [opId, "<op>"],
        [id, "<thing>"],
      ],
    };
  };
  await attempt(`${PUSH} thing.create`, "op id (opId)", createWith(await theirOpId()), createWith(uuidv7()));
  for (const name of OP_NAMES) {
    const schema = z.toJSONSchema(opArgs[name], { io: "input", unrepresentable: "any" }) as Schema;
    const target = opTargetKind(name);
    const kindOf = (f: { at: (string | number)[]; name: string }) =>
      f.at.length === 1 && f.name === "id" ? target : idKindOf("POST", "/api/v1/sync/push", "body", f.name);
    const fields = uuidFields(schema, schema).map((f) => ({ ...f, ref: kindOf(f) }));
    const unknownField = fields.find((f) => !f.ref);
    expect(unknownField && `${name}: args.${unknownField.name}`, "pushed op args naming an id of a kind test/support/hostile.ts cannot make").toBeUndefined();
    const baseArgs = () =>
      PUSH_ARGS[name]?.() ??
      (exampleOf(schema, "args", { root: schema, rowVersion: 1, idFor: (field) => ownId(kindOf({ at: [field], name: field })!) }) as Record<string, unknown>);
    const pushOne = async (op: { id: string; locationId: string; args: Record<string, unknown> }) => {
      const res = await sendRaw(svc, {
        method: "POST",
        path: "/api/v1/sync/push",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ clientId: "bravo-device", protocol: PROTOCOL, ops: [{ ...op, name, at }] }),
        cookies: B.owner.cookies,
        address: B.owner.address,
      });
      return { res, extra: await dropItems(res) };
    };
    const route = `${PUSH} ${name}`;
    const freshArgs = fields.filter((f) => f.ref!.fresh).map((f) => f.at);
    /** The op with B's base args, `override` swapped in and new ids where the op makes a row. */
    const opWith = (args: Record<string, unknown>, locationId: string, override?: [IdParam, string]) => {
      const renewed = renewFresh(args, freshArgs, override ? [override[0].at] : []);
      const opId = uuidv7();
      const withValue = override ? setAt(renewed.body, override[0].at, override[0].list ? [override[1]] : override[1]) : renewed.body;
      return { op: { id: opId, locationId, args: withValue }, replace: [...renewed.replace, [opId, "<op>"]] as [string, string][] };
    };
    // The op's location.
    await B.renew();
    const args = baseArgs();
    const inLocation = (locationId: string) => async (): Promise<Call> => {
      const { op, replace } = opWith(args, locationId);
      return { ...(await pushOne(op)), replace: [[locationId, "<locationId>"], ...replace] };
    };
    await attempt(route, "op locationId (location)", inLocation(A.ids.location), inLocation(uuidv7()));
    // Each id the args name.
    for (const f of fields) {
      await B.renew();
      const fieldArgs = baseArgs();
      const naming = (value: string) => async (): Promise<Call> => {
        const { op, replace } = opWith(fieldArgs, B.ids.location, [f, value]);
        return { ...(await pushOne(op)), replace: [[value, `<${f.name}>`], ...replace] };
      };
      await attempt(route, `args.${f.at.join(".")} (${f.ref!.kind})`, naming(A.ids[f.ref!.kind]), naming(f.ref!.fresh ? B.ids[f.ref!.kind] : uuidv7()), {
        fresh: f.ref!.fresh,
      });
    }
  }
}

/** Tool arguments the schema alone cannot make valid: a change needs a field, a move one destination. */
const MCP_ARGS: Record<string, () => Record<string, unknown>> = {
  update_thing: () => ({ id: B.ids.thing, rowVersion: 1, patch: { name: "Renamed by B" } }),
  move_thing: () => ({ id: B.ids.thing, placeId: B.ids.place }),
};

test("every MCP tool that takes an id answers B's connection with A's id exactly as with an id nobody has, and changes nothing of A's", async () => {
  const token = await mcpToken(https, B.owner.userId, [B.ids.location]);
  const listed = await mcpCall(https, token, "tools/list", {});
  const tools = (listed.body as { result: { tools: { name: string; inputSchema: Schema }[] } }).result.tools;
  expect(tools.map((t) => t.name)).toContain("update_thing");
  const missing: string[] = [];
  for (const tool of tools) {
    const schema = tool.inputSchema;
    const kindOf = (f: IdParam): IdRef | undefined => {
      if (f.at.length === 1 && f.name === "id") return MCP_TOOL_TARGETS[tool.name] && { kind: MCP_TOOL_TARGETS[tool.name]!, fresh: false };
      return idKindOf("POST", "/mcp", "body", f.name);
    };
    const fields = uuidFields(schema, schema).map((f) => ({ ...f, ref: kindOf(f) }));
    for (const f of fields) if (!f.ref) missing.push(`${tool.name}: ${f.name}`);
    if (!fields.length || fields.some((f) => !f.ref)) continue;
    stats.routes.add(`MCP ${tool.name}`);
    for (const f of fields) {
      await B.renew();
      const args =
        MCP_ARGS[tool.name]?.() ??
        (exampleOf(schema, "arguments", {
          root: schema,
          rowVersion: 1,
          idFor: (name) => ownId(kindOf({ where: "body", name, at: [name], list: false, ref: undefined })!),
        }) as Record<string, unknown>);
      const naming = (value: string) => async (): Promise<Call> => {
        let withValue = setAt(args, f.at, f.list ? [value] : value);
        // A change carries the version of the row it names, whoever's it is: only visibility may differ.
        if ("rowVersion" in withValue) withValue = { ...withValue, rowVersion: await B.rowVersion("thing", String(withValue.id)) };
        return { res: await mcpCall(https, token, "tools/call", { name: tool.name, arguments: withValue }), replace: [[value, `<${f.name}>`]] };
      };
      await attempt(`MCP ${tool.name}`, `${f.at.join(".")} (${f.ref!.kind})`, naming(A.ids[f.ref!.kind]), naming(f.ref!.fresh ? B.ids[f.ref!.kind] : uuidv7()));
    }
  }
  expect(missing, "MCP tools naming an id of a kind test/support/hostile.ts cannot make").toEqual([]);
  expectNoProblems();
}, 300_000);
