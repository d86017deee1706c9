/**
 * Hostile variants of every operation in the OpenAPI document (trust issue, part 3), sent to a
 * running service as a signed-in owner (with ids of the owner's real rows, so requests get past
 * "not found") and anonymously: malformed percent-encoding, NUL and lone surrogates, nesting far
 * past the limit, huge strings and strings just over each maxLength, wrong types, wrong or missing
 * content types and empty bodies. Every answer must be below 500, every 4xx our error body, and a
 * refused request must leave the database as it was. Each operation is also sent with every id it
 * carries (path, query, body, a pushed op's) in upper and in mixed case, and must answer as it does
 * in lower case: the same status and the same record, ids in lower case. The auth library's routes,
 * /mcp and the shape route get a smaller hand-written set. Variants are sampled with a fixed seed
 * (SEED in test/support/hostile.ts); HOSTILE_TRACE=1 prints every request and its status.
 */
import { z } from "zod";
import { v7 as uuidv7 } from "uuid";
import { afterAll, expect } from "vitest";
import { sharedDbTest as test } from "../../support/fixtures.js";
import { errorBodySchema } from "../../../shared/errors.js";
import { opArgs } from "../../../sync/ops.js";
import { PROTOCOL } from "../../../sync/protocol.js";
import type { Database } from "../../../server/db/client.js";
import { type TestService } from "../../support/app.js";
import { seeded } from "../../support/device-load.js";
import { holdsId, ID_CASES, idPlaces, idsByPlace, recase, upperCaseIds, type IdCase } from "../../support/id-case.js";
import {
  changedMetrics,
  deref,
  exampleOf,
  idKindOf,
  isUuid,
  mainOf,
  MCP_TOOL_TARGETS,
  mcpToken,
  nullable,
  operationsOf,
  PNG,
  SEED,
  seedTenant,
  sendRaw,
  snapshotter,
  type Client,
  type Operation,
  type RawResponse,
  type Schema,
  type Snapshot,
  type Tenant,
} from "../../support/hostile.js";

// ---------------------------------------------------------------------------------------------
// Valid requests: the base every variant changes one thing of

let svc: TestService;
let https: TestService;
let database: Database;
let owner: Tenant;
let snap: () => Promise<Snapshot>;
let n = 0;

/** Ids of the owner's live rows, by the route's rules (test/support/hostile.ts). */
function idFor(op: Operation, where: "path" | "query" | "body", name: string): string {
  const own = op.ids?.(name);
  const ref = own ? { kind: own, fresh: false } : idKindOf(op.method, op.path, where, name);
  if (!ref) throw new Error(`${op.key}: no id kind for ${where} ${name}; add it to test/support/hostile.ts`);
  return ref.fresh ? uuidv7() : owner.ids[ref.kind];
}

/** A valid value for `s` with the owner's ids. */
const example = (s: Schema, name: string, cx: { op: Operation; root: Schema; rowVersion: number }) =>
  exampleOf(s, name, { root: cx.root, rowVersion: cx.rowVersion, idFor: (field) => idFor(cx.op, "body", field) });

/** The target row of a path, for the rowVersion a write must carry. */
async function rowVersionFor(op: Operation): Promise<number> {
  const last = op.pathParams.at(-1);
  if (!last) return 1;
  const ref = idKindOf(op.method, op.path, "path", last);
  return ref ? owner.rowVersion(ref.kind, owner.ids[ref.kind]) : 1;
}

/** Bodies the schema alone cannot make valid enough to reach deep code. */
const BASE_BODIES: Record<string, () => unknown> = {
  // One op that applies: the batch goes through the executor, not just the envelope check.
  "POST /api/v1/sync/push": () => ({
    clientId: "fuzz-device",
    protocol: PROTOCOL,
    ops: [{ id: uuidv7(), name: "thing.create", locationId: owner.ids.location, at: new Date().toISOString(), args: { id: uuidv7(), name: `Pushed ${++n}` } }],
  }),
  // A provider kind that needs a key, with one: the settings are stored.
  "PUT /api/v1/me/ai-settings": () => ({ providerKind: "provider_a", model: "gpt-4o-mini", apiKey: `sk-fuzz-${++n}` }),
  "PUT /api/v1/me/account/ai-settings": () => ({ providerKind: "provider_a", model: "gpt-4o-mini", apiKey: `sk-fuzz-${++n}` }),
};

/** Routes whose body is not JSON: an upload is the file's bytes. */
const RAW_BODIES: Record<string, { type: string; body: Buffer }> = { "POST /api/v1/files": { type: "image/png", body: PNG } };

/** Path parameters that are not ids. */
const PATH_VALUES: Record<string, () => string> = {
  "GET /api/v1/sync/shape/{name}:name": () => "things",
  "PUT /api/v1/me/hints/{key}:key": () => "welcome",
};

interface Base {
  params: Record<string, string>;
  query: [string, string][];
  body?: unknown;
}

async function baseOf(op: Operation): Promise<Base> {
  const params: Record<string, string> = {};
  for (const p of op.pathParams) params[p] = PATH_VALUES[`${op.key}:${p}`]?.() ?? idFor(op, "path", p);
  const query: [string, string][] = [];
  for (const q of op.query) {
    if (!q.required) continue;
    const m = q.schema;
    query.push([q.name, isUuid(m) ? idFor(op, "query", q.name) : q.name === "offset" ? "-1" : String(example(m, q.name, { op, root: m, rowVersion: 1 }))]);
  }
  if (!op.body) return { params, query };
  const cx = { op, root: op.body, rowVersion: await rowVersionFor(op) };
  return { params, query, body: BASE_BODIES[op.key]?.() ?? example(op.body, "body", cx) };
}

// ---------------------------------------------------------------------------------------------
// Variants

const CLASSES = ["percent", "nul", "surrogate", "overMax", "huge", "deep", "type", "contentType", "empty"] as const;
type Cls = (typeof CLASSES)[number];

interface Built {
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

interface Variant {
  cls: Cls;
  label: string;
  make(base: Base): Built;
}

const MB = 1024 * 1024;
/** A value spliced into the JSON text as is (numbers JSON.stringify cannot write, 10,000 levels of nesting). */
const RAW = (text: string) => `\u0001raw:${text}\u0001`;
const deepArrays = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
const deepObjects = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);

function json(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001raw:(.*?)\\u0001"/gs, (_m, raw: string) => JSON.parse(`"${raw}"`) as string);
}

function urlOf(op: Operation, params: Record<string, string>, query: [string, string][] | string): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, p: string) => params[p] ?? "");
  const qs = typeof query === "string" ? query : query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  return qs ? `${path}?${qs}` : path;
}

const encodedQuery = (base: Base) => base.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);

function withBody(op: Operation, base: Base, body?: unknown): Built {
  const raw = RAW_BODIES[op.key];
  const path = urlOf(op, Object.fromEntries(Object.entries(base.params).map(([k, v]) => [k, encodeURIComponent(v)])), base.query);
  if (raw) return { path, headers: { "content-type": raw.type }, body: raw.body };
  const value = body === undefined ? base.body : body;
  return value === undefined ? { path, headers: {} } : { path, headers: { "content-type": "application/json" }, body: json(value) };
}

/** A copy of `body` with the value at `at` replaced (parents made as needed). */
function setAt(body: unknown, at: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body ?? {}) as Record<string | number, unknown>;
  let node = copy;
  at.forEach((k, i) => {
    if (i === at.length - 1) node[k] = value;
    else {
      if (node[k] === null || typeof node[k] !== "object") node[k] = typeof at[i + 1] === "number" ? [] : {};
      node = node[k] as Record<string | number, unknown>;
    }
  });
  return copy;
}

interface Field {
  at: (string | number)[];
  schema: Schema;
  nullable: boolean;
}

/** Every field of a body schema down to three levels: properties, the first item of arrays, one key of free-form records. */
function fieldsOf(s: Schema, root: Schema, at: (string | number)[] = [], depth = 0): Field[] {
  const m = mainOf(s, root);
  const out: Field[] = [];
  if (depth > 3) return out;
  if (m.type === "object" && m.properties) {
    for (const [k, p] of Object.entries(m.properties as Record<string, Schema>)) {
      out.push({ at: [...at, k], schema: mainOf(p, root), nullable: nullable(p, root) });
      out.push(...fieldsOf(p, root, [...at, k], depth + 1));
    }
  } else if (m.type === "object" && m.additionalProperties !== undefined && m.additionalProperties !== false) {
    out.push({ at: [...at, "note"], schema: mainOf(m.additionalProperties === true ? {} : m.additionalProperties, root), nullable: true });
  } else if (m.type === "array" && m.items) {
    out.push({ at: [...at, 0], schema: mainOf(m.items, root), nullable: false });
    out.push(...fieldsOf(m.items, root, [...at, 0], depth + 1));
  }
  return out;
}

/** The push body's `args` are free-form in the document: the base op's own schema (sync/ops.ts) names their fields. */
function bodySchemaOf(op: Operation): Schema | undefined {
  if (op.key !== "POST /api/v1/sync/push" || !op.body) return op.body;
  const schema = structuredClone(op.body);
  const item = deref(schema, schema).properties.ops.items;
  item.properties.args = z.toJSONSchema(opArgs["thing.create"], { io: "input", unrepresentable: "any" });
  return schema;
}

const label = (at: (string | number)[]) => at.join(".");

/** Every variant of one operation, in the order they are sent (the ones likeliest to succeed, and so to use a row up, last). */
function variantsOf(op: Operation): Variant[] {
  const v: Variant[] = [];
  const add = (cls: Cls, lbl: string, make: (base: Base) => Built) => v.push({ cls, label: lbl, make });
  const schema = bodySchemaOf(op);
  const fields = schema ? fieldsOf(schema, schema) : [];
  const strings = fields.filter((f) => f.schema.type === "string" || f.schema.type === undefined);
  const params = (base: Base, p: string, value: string) => ({
    ...Object.fromEntries(Object.entries(base.params).map(([k, x]) => [k, encodeURIComponent(x)])),
    [p]: value,
  });
  const inPath =
    (p: string, value: string) =>
    (base: Base): Built => ({ ...withBody(op, base), path: urlOf(op, params(base, p, value), base.query) });
  const inQuery =
    (name: string, raw: string) =>
    (base: Base): Built => ({
      ...withBody(op, base),
      path: urlOf(
        op,
        params(base, "", ""),
        [...encodedQuery(base).filter((q) => !q.startsWith(`${encodeURIComponent(name)}=`)), `${encodeURIComponent(name)}=${raw}`].join("&"),
      ),
    });
  const inBody =
    (at: (string | number)[], value: unknown) =>
    (base: Base): Built =>
      withBody(op, base, setAt(base.body, at, value));
  const queryNames = op.query.map((q) => q.name);
  // Where nothing of the operation takes text, the junk goes into a query parameter it does not read.
  const spare = queryNames[0] ?? "x";

  // Malformed percent-encoding: in each path parameter, else in the query.
  for (const p of op.pathParams) for (const bad of ["%E0%A4%A", "%", "%zz", "abc%C0%AF"]) add("percent", `path ${p} ${bad}`, inPath(p, bad));
  for (const q of op.pathParams.length ? queryNames.slice(0, 1) : [spare]) add("percent", `query ${q} %E0%A4%A`, inQuery(q, "%E0%A4%A"));

  // NUL and lone surrogates: path (as UTF-8 bytes, the only way a URL carries them), query and every string field.
  for (const p of op.pathParams) {
    add("nul", `path ${p} NUL`, (base) => inPath(p, `${encodeURIComponent(base.params[p]!)}%00`)(base));
    add("surrogate", `path ${p} U+D800`, inPath(p, "%ED%A0%80"));
  }
  for (const q of queryNames.length ? queryNames : [spare]) {
    add("nul", `query ${q} NUL`, inQuery(q, "a%00b"));
    add("surrogate", `query ${q} U+D800`, inQuery(q, "%ED%A0%80"));
  }
  for (const f of strings) {
    add("nul", `body ${label(f.at)} NUL`, inBody(f.at, "Drill\u0000bit"));
    add("surrogate", `body ${label(f.at)} U+D800`, inBody(f.at, "Drill \ud800 bit"));
    add("surrogate", `body ${label(f.at)} U+DC00 alone`, inBody(f.at, "\udc00"));
  }
  if (schema) {
    add("nul", "body key with NUL", (base) => withBody(op, base, { ...(base.body as object), ["we\u0000ird"]: 1 }));
    add("surrogate", "body key with U+D800", (base) => withBody(op, base, { ...(base.body as object), ["\ud800"]: 1 }));
  }

  // Just over each maxLength (strings, arrays) and each maximum.
  for (const q of op.query) {
    const m = q.schema;
    if (m.maxLength !== undefined) add("overMax", `query ${q.name} ${m.maxLength + 1} chars`, inQuery(q.name, "x".repeat(m.maxLength + 1)));
    if (m.maximum !== undefined && m.maximum < 1e9) add("overMax", `query ${q.name} ${m.maximum + 1}`, inQuery(q.name, String(m.maximum + 1)));
  }
  for (const f of fields) {
    const m = f.schema;
    if (m.type === "string" && m.maxLength !== undefined)
      add("overMax", `body ${label(f.at)} ${m.maxLength + 1} chars`, inBody(f.at, "x".repeat(m.maxLength + 1)));
    if (m.type === "array" && m.maxItems !== undefined)
      add("overMax", `body ${label(f.at)} ${m.maxItems + 1} items`, (base) => {
        const item = isUuid(mainOf(m.items ?? {}, schema!)) ? () => uuidv7() : () => "x";
        return inBody(f.at, Array.from({ length: m.maxItems + 1 }, item))(base);
      });
    if ((m.type === "integer" || m.type === "number") && m.maximum !== undefined)
      add("overMax", `body ${label(f.at)} above maximum`, inBody(f.at, RAW(m.maximum >= 9007199254740991 ? "9007199254740993" : String(m.maximum + 1))));
  }
  for (const p of op.pathParams) add("overMax", `path ${p} one character too long`, (base) => inPath(p, `${encodeURIComponent(base.params[p]!)}0`)(base));
  if (!v.some((x) => x.cls === "overMax")) add("overMax", `query ${spare} 2049 chars`, inQuery(spare, "x".repeat(2049)));

  // Huge: a megabyte in a path parameter, a query parameter and each string field.
  for (const p of op.pathParams.slice(0, 1)) add("huge", `path ${p} 1 MB`, inPath(p, "a".repeat(MB)));
  add("huge", `query ${spare} 1 MB`, inQuery(spare, "a".repeat(MB)));
  for (const f of strings) add("huge", `body ${label(f.at)} 1 MB`, inBody(f.at, "x".repeat(MB)));
  add("huge", "body of 5 MB", (base) => ({
    ...withBody(op, base),
    headers: { "content-type": "application/json" },
    body: json({ ...(base.body as object), pad: "x".repeat(5 * MB) }),
  }));

  // Deep: 10,000 levels as the whole body and in each field; just under the limit in each free-form field.
  add("deep", "body 10,000 [", (base) => ({ ...withBody(op, base), headers: { "content-type": "application/json" }, body: deepArrays(10_000) }));
  add("deep", "body 10,000 unclosed [", (base) => ({ ...withBody(op, base), headers: { "content-type": "application/json" }, body: "[".repeat(10_000) }));
  for (const f of fields) add("deep", `body ${label(f.at)} 10,000 levels`, inBody(f.at, RAW(deepObjects(10_000))));
  for (const f of fields.filter((x) => x.schema.type === undefined)) add("deep", `body ${label(f.at)} 60 levels`, inBody(f.at, RAW(deepObjects(60))));

  // Wrong types: each field, each query parameter, each path parameter, the body as a whole.
  for (const f of fields) {
    const t = f.schema.type;
    const wrong: [string, unknown][] = [];
    if (t === "string") wrong.push(["number", 12345], ["boolean", true], ["object", { a: 1 }]);
    if (t === "integer" || t === "number")
      wrong.push(["string", "1"], ["fraction", 1.5], ["Infinity", RAW("1e999")], ["negative", -1], ["huge integer", RAW("123456789012345678901234567890")]);
    if (t === "boolean") wrong.push(["string", "true"], ["number", 1]);
    if (t === "array") wrong.push(["object for array", { 0: "x" }], ["string for array", "x"]);
    if (t === "object") wrong.push(["array for object", []], ["string for object", "x"]);
    if (t === undefined) wrong.push(["array", [1, 2]], ["object", { __proto__: { polluted: true } }]);
    if (!f.nullable) wrong.push(["null", null]);
    for (const [what, value] of wrong) add("type", `body ${label(f.at)} ${what}`, inBody(f.at, value));
  }
  if (schema) {
    add("type", "body is an array", (base) => withBody(op, base, [base.body]));
    add("type", "body is a string", (base) => ({ ...withBody(op, base), headers: { "content-type": "application/json" }, body: '"x"' }));
    add("type", "body is a number", (base) => ({ ...withBody(op, base), headers: { "content-type": "application/json" }, body: "1" }));
    add("type", "body with __proto__", (base) => ({
      ...withBody(op, base),
      headers: { "content-type": "application/json" },
      body: json(base.body).replace(/^\{/, '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},'),
    }));
  }
  for (const q of op.query) {
    add("type", `query ${q.name} twice (an array)`, (base) => ({
      ...withBody(op, base),
      path: urlOf(op, params(base, "", ""), [...encodedQuery(base), `${q.name}=a`, `${q.name}=b`].join("&")),
    }));
    if (q.schema.type === "integer") for (const bad of ["abc", "1.5", "-1", "1e999", "0x10", ""]) add("type", `query ${q.name}=${bad}`, inQuery(q.name, bad));
    if (isUuid(q.schema)) add("type", `query ${q.name} not a uuid`, inQuery(q.name, "1"));
    if (q.schema.enum) add("type", `query ${q.name} outside its enum`, inQuery(q.name, "nope"));
  }
  for (const p of op.pathParams)
    for (const bad of ["1", "null", "%7B%7D", "%5B%5D", "..", "-1"]) add("type", `path ${p} ${decodeURIComponent(bad)}`, inPath(p, bad));
  if (!v.some((x) => x.cls === "type"))
    add("type", `query ${spare} twice (an array)`, (base) => ({
      ...withBody(op, base),
      path: urlOf(op, params(base, "", ""), [...encodedQuery(base), `${spare}=a`, `${spare}=b`].join("&")),
    }));

  // Content types other than JSON, or none; a JSON text in another charset; a compressed body that is not.
  const form = (base: Base) =>
    new URLSearchParams(Object.entries((base.body ?? { a: "b" }) as Record<string, unknown>).map(([k, x]) => [k, String(x)])).toString();
  add("contentType", "text/plain", (base) => ({ ...withBody(op, base), headers: { "content-type": "text/plain" }, body: json(base.body ?? {}) }));
  add("contentType", "form", (base) => ({ ...withBody(op, base), headers: { "content-type": "application/x-www-form-urlencoded" }, body: form(base) }));
  add("contentType", "multipart", (base) => ({
    ...withBody(op, base),
    headers: { "content-type": "multipart/form-data; boundary=x" },
    body: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nDrill\r\n--x--\r\n',
  }));
  add("contentType", "no content type", (base) => ({ ...withBody(op, base), headers: {}, body: json(base.body ?? {}) }));
  add("contentType", "JSON in latin1", (base) => ({
    ...withBody(op, base),
    headers: { "content-type": "application/json; charset=latin1" },
    body: json(base.body ?? {}),
  }));
  add("contentType", "gzip that is not", (base) => ({
    ...withBody(op, base),
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
    body: json(base.body ?? {}),
  }));
  add("contentType", "JSON with a BOM", (base) => ({
    ...withBody(op, base),
    headers: { "content-type": "application/json" },
    body: `\ufeff${json(base.body ?? {})}`,
  }));

  // Empty and broken bodies.
  add("empty", "JSON content type, no bytes", (base) => ({ ...withBody(op, base), headers: { "content-type": "application/json" }, body: "" }));
  add("empty", "truncated JSON", (base) => ({
    ...withBody(op, base),
    headers: { "content-type": "application/json" },
    body: json(base.body ?? { a: 1 }).slice(0, -1),
  }));
  add("empty", "JSON null", (base) => ({ ...withBody(op, base), headers: { "content-type": "application/json" }, body: "null" }));
  add("empty", "empty object", (base) => ({ ...withBody(op, base), headers: { "content-type": "application/json" }, body: "{}" }));
  add("empty", "no body at all", (base) => ({ path: withBody(op, base).path, headers: {} }));
  return v;
}

// ---------------------------------------------------------------------------------------------
// Sending and checking

// Seeded, so a failure can be replayed.
const random = seeded(SEED);

/** At most `max` of `items`, the same ones every run. */
function sample<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items;
  const pool = [...items];
  const out: T[] = [];
  while (out.length < max) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return out;
}

/** Per class, how many variants of one operation are sent (the rest are sampled away). */
const PER_CLASS: Record<Cls, number> = { percent: 4, nul: 8, surrogate: 8, overMax: 8, huge: 4, deep: 4, type: 12, contentType: 5, empty: 5 };

interface Failure {
  op: string;
  variant: string;
  as: string;
  problem: string;
}

const failures: Failure[] = [];
const stats = { requests: 0, byStatus: {} as Record<string, number>, byClass: {} as Record<string, number>, operations: new Set<string>() };
let before: Snapshot;

/** True when the answer is a refusal: an HTTP error, or (for /mcp) a JSON-RPC error or a tool's error result. */
function refused(res: RawResponse): boolean {
  if (res.status >= 400) return true;
  const b = res.body as { jsonrpc?: unknown; error?: unknown; result?: { isError?: boolean } } | null;
  return !!b && typeof b === "object" && "jsonrpc" in b && ("error" in b || b.result?.isError === true);
}

/** Who sends a request: the owner's session, nobody, an MCP client's access token... */
interface Caller {
  name: string;
  send(method: string, built: Built): Promise<RawResponse>;
}

const signedIn = (target: TestService, c: Client, name: string): Caller => ({
  name,
  send: (method, built) =>
    sendRaw(target, {
      method,
      path: built.path,
      headers: built.headers,
      ...(built.body !== undefined ? { body: built.body } : {}),
      cookies: c.cookies,
      address: c.address,
    }),
});

/** Nobody, each time from an address of its own (so per-IP limits see a crowd, not one abuser). */
const anonymous = (target: TestService): Caller => ({
  name: "anonymous",
  send: (method, built) =>
    sendRaw(target, {
      method,
      path: built.path,
      headers: built.headers,
      ...(built.body !== undefined ? { body: built.body } : {}),
      address: target.client().address,
    }),
});

interface CheckOptions {
  /** Besides our error body, the error bodies a protocol route answers with (JSON-RPC, OAuth bearer errors at /mcp). */
  protocolError?: (res: RawResponse) => boolean;
}

/** Where the time goes: sending, snapshots, and the requests with ids in other cases (with their renewals). */
const timing = { snap: 0, send: 0, cases: 0 };

async function check(
  what: { op: string; variant: string; cls: string },
  caller: Caller,
  send: () => Promise<RawResponse>,
  opts: CheckOptions = {},
): Promise<RawResponse | undefined> {
  let res: RawResponse;
  const fail = (problem: string) => failures.push({ op: what.op, variant: what.variant, as: caller.name, problem });
  try {
    const t0 = performance.now();
    res = await send();
    timing.send += performance.now() - t0;
  } catch (err) {
    fail(`no answer: ${(err as Error).message}`);
    before = await snap();
    return undefined;
  }
  stats.requests++;
  stats.byClass[what.cls] = (stats.byClass[what.cls] ?? 0) + 1;
  const statusClass = `${Math.floor(res.status / 100)}xx`;
  stats.byStatus[statusClass] = (stats.byStatus[statusClass] ?? 0) + 1;
  if (res.status >= 500 || res.status < 100) fail(`status ${res.status}: ${res.text.slice(0, 200)}`);
  else if (res.status >= 400 && !opts.protocolError?.(res)) {
    const parsed = errorBodySchema.strict().safeParse(res.body);
    if (!parsed.success) fail(`${res.status} without our error body: ${JSON.stringify(res.text.slice(0, 200))}`);
    else if (!String(res.headers["content-type"] ?? "").startsWith("application/json"))
      fail(`${res.status} error body as ${String(res.headers["content-type"])}`);
  }
  if (process.env.HOSTILE_TRACE)
    console.log(`TRACE ${res.status} ${what.op} [${caller.name}] ${what.variant} ${res.status >= 400 ? res.text.slice(0, 120) : ""}`);
  // A request with ids in another case is checked against the lower-case one instead
  // (compareCases), which the suite sends next after a snapshot of its own: none here.
  if (what.cls === "case") return res;
  const t0 = performance.now();
  const after = await snap();
  timing.snap += performance.now() - t0;
  if (refused(res)) {
    const changed = changedMetrics(before, after);
    if (changed.length) fail(`refused with ${res.status} but wrote: ${changed.join(", ")}`);
  }
  before = after;
  return res;
}

/**
 * Sends the sampled variants of one operation as its caller, one of each class as the other
 * caller, then the valid request itself (last: it may use its row up). Answers the valid
 * request's answer when it failed schema validation (then the variants tested the schema alone).
 */
async function fuzzOperation(op: Operation, primary: Caller, secondary: Caller, opts: CheckOptions = {}, perClass = PER_CLASS): Promise<string | null> {
  await owner.renew();
  before = await snap();
  const all = variantsOf(op);
  const chosen = CLASSES.flatMap((cls) =>
    sample(
      all.filter((x) => x.cls === cls),
      perClass[cls],
    ),
  );
  const covered = new Set<Cls>();
  // Whether a variant went through and so may have used a row up (a write's).
  let usedUp = false;
  const wrote = (res: RawResponse | undefined) => (usedUp ||= !!res && op.method !== "GET" && !refused(res));
  for (const variant of chosen) {
    const base = await baseOf(op);
    wrote(await check({ op: op.key, variant: variant.label, cls: variant.cls }, primary, () => primary.send(op.method, variant.make(base)), opts));
    covered.add(variant.cls);
  }
  for (const cls of CLASSES) {
    const variant = chosen.find((x) => x.cls === cls)!;
    wrote(await check({ op: op.key, variant: variant.label, cls }, secondary, async () => secondary.send(op.method, variant.make(await baseOf(op))), opts));
  }
  const t0 = performance.now();
  const cased = await casedRequests(op, primary, usedUp, opts);
  if (cased.usedUp) await owner.renew();
  if (cased.sent.length) before = await snap();
  timing.cases += performance.now() - t0;
  let validBase: Base | undefined;
  const valid = await check(
    { op: op.key, variant: "valid request", cls: "valid" },
    primary,
    async () => primary.send(op.method, withBody(op, (validBase = await baseOf(op)))),
    opts,
  );
  if (valid && validBase) compareCases(op, primary, { base: validBase, res: valid }, cased.sent);
  coverage.set(op.key, covered);
  stats.operations.add(op.key);
  // A schema refusal names its issues; "this link is invalid" and the like are the route's own answer to a valid request.
  const body = valid?.body as { error?: { details?: { issues?: unknown } } } | null | undefined;
  return body?.error?.details?.issues ? `${op.key}: ${JSON.stringify(body).slice(0, 200)}` : null;
}

const coverage = new Map<string, Set<Cls>>();

// ---------------------------------------------------------------------------------------------
// The same ids in upper and mixed case

interface Sent {
  base: Base;
  res: RawResponse;
}

/**
 * The base request with every id it carries (path, query, body) in each other case, each after the
 * rows an earlier request may have used up are made anew (renewing costs a query and the rows it
 * makes: only then). Answers what was sent, and whether the last of it may have used a row up.
 */
async function casedRequests(
  op: Operation,
  caller: Caller,
  usedUp: boolean,
  opts: CheckOptions,
): Promise<{ sent: (Sent & { how: IdCase })[]; usedUp: boolean }> {
  const sent: (Sent & { how: IdCase })[] = [];
  if (!holdsId(await baseOf(op))) return { sent, usedUp: false };
  for (const how of ID_CASES) {
    if (usedUp) await owner.renew();
    const cased = recase(await baseOf(op), how);
    const res = await check({ op: op.key, variant: `ids in ${how} case`, cls: "case" }, caller, () => caller.send(op.method, withBody(op, cased)), opts);
    usedUp = !!res && op.method !== "GET" && !refused(res);
    if (res) sent.push({ how, base: cased, res });
  }
  return { sent, usedUp };
}

const placesOf = (base: Base) => idPlaces({ path: base.params, query: Object.fromEntries(base.query), body: base.body });

/**
 * An id in another case is the same id: the same status as the lower-case request, the same
 * record (a read answers the very same body; a write names the request's rows in the same places
 * of its answer), and every id answered in lower case.
 */
function compareCases(op: Operation, caller: Caller, lower: Sent, cased: (Sent & { how: IdCase })[]) {
  for (const { how, base, res } of cased) {
    const fail = (problem: string) => failures.push({ op: op.key, variant: `ids in ${how} case`, as: caller.name, problem });
    if (res.status !== lower.res.status || refused(res) !== refused(lower.res)) {
      fail(`answered ${res.status} ${res.text.slice(0, 160)}; in lower case ${lower.res.status} ${lower.res.text.slice(0, 160)}`);
      continue;
    }
    const upper = upperCaseIds(res.text);
    if (upper.length) fail(`answered ids in upper case: ${upper.slice(0, 3).join(", ")}`);
    if (res.status >= 300 || typeof res.body !== "object" || res.body === null) continue;
    if (op.method === "GET") {
      if (JSON.stringify(res.body) !== JSON.stringify(lower.res.body))
        fail(`answered ${res.text.slice(0, 200)}; in lower case ${lower.res.text.slice(0, 200)}`);
      continue;
    }
    const got = idsByPlace(res.body, placesOf(base));
    const want = idsByPlace(lower.res.body, placesOf(lower.base));
    if (JSON.stringify(got) !== JSON.stringify(want)) fail(`named ${JSON.stringify(got).slice(0, 300)}; in lower case ${JSON.stringify(want).slice(0, 300)}`);
  }
}

function summary(what: string, from: { requests: number; byStatus: Record<string, number>; operations: number }) {
  const byStatus = Object.fromEntries(Object.entries(stats.byStatus).map(([k, v]) => [k, v - (from.byStatus[k] ?? 0)]));
  console.log(
    `fuzz-openapi ${what} (seed ${SEED}, ${svc.database.kind}): ${stats.operations.size - from.operations} operations, ${stats.requests - from.requests} requests; by status ${JSON.stringify(byStatus)}`,
  );
}
const mark = () => ({ requests: stats.requests, byStatus: { ...stats.byStatus }, operations: stats.operations.size });

/** Fails the test with what went wrong since the test began (each test starts with an empty list). */
function expectClean(invalidBases: (string | null)[]) {
  const found = failures.splice(0);
  for (const f of found) console.log(`FAIL ${f.op} [${f.as}] ${f.variant}: ${f.problem}`);
  expect(invalidBases.filter(Boolean), "valid requests that fail schema validation (so their variants test the schema alone)").toEqual([]);
  expect(
    [...coverage].filter(([, c]) => c.size !== CLASSES.length).map(([k, c]) => `${k}: ${CLASSES.filter((x) => !c.has(x)).join(",")}`),
    "operations missing a variant class",
  ).toEqual([]);
  expect(found).toEqual([]);
}

// ---------------------------------------------------------------------------------------------

test.beforeAll(async ({ database: db, serviceOn }) => {
  database = db;
  svc = await serviceOn();
  https = await serviceOn({ SVC_PUBLIC_URL: "https://inventory.example" });
  owner = await seedTenant(svc, "Fuzz");
  snap = await snapshotter(database.db);
});
afterAll(async () => {
  console.log(
    `fuzz-openapi total (seed ${SEED}, ${svc?.database.kind}): ${stats.operations.size} operations, ${stats.requests} requests; by status ${JSON.stringify(stats.byStatus)}; by class ${JSON.stringify(stats.byClass)}; ${Math.round(timing.send)} ms sending, ${Math.round(timing.snap)} ms snapshots, ${Math.round(timing.cases)} ms on ids in other cases`,
  );
});

test("every operation of the OpenAPI document answers every hostile variant with a 4xx in our error body (or a 2xx), never a 5xx, and a refusal writes nothing", async () => {
  const from = mark();
  const doc = (await svc.client().get("/api/v1/openapi.json")).body;
  const ops = operationsOf(doc);
  expect(ops.length).toBeGreaterThan(40);
  const ownerCaller = signedIn(svc, owner.owner, "owner");
  const invalidBases: (string | null)[] = [];
  for (const op of ops) {
    // The caller the operation is for: the owner, or nobody for the routes that take no sign-in.
    const [primary, secondary] = op.auth === "none" ? [anonymous(svc), ownerCaller] : [ownerCaller, anonymous(svc)];
    invalidBases.push(await fuzzOperation(op, primary, secondary));
  }
  summary("document", from);
  expectClean(invalidBases);
  // About 3,300 requests over some 70 operations: near a minute on a quiet 2-core machine, more beside other files.
}, 300_000);

/** A pseudo-operation for a route the document does not list. */
const route = (method: string, path: string, body?: Record<string, Schema>, required = Object.keys(body ?? {})): Operation => ({
  key: `${method} ${path}`,
  method,
  path,
  auth: "optional",
  pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
  query: [],
  ...(body ? { body: { type: "object", properties: body, required, additionalProperties: false } } : {}),
});
const str = (maxLength?: number): Schema => ({ type: "string", ...(maxLength ? { maxLength } : {}) });
const email: Schema = { type: "string", format: "email", maxLength: 320 };

test("the auth library's routes (described by hand, not fuzzed from the document) answer hostile input the same way", async () => {
  const from = mark();
  // A person of their own: these routes change passwords, names and second factors.
  const person = await svc.signedIn("Library Person");
  const asPerson = signedIn(svc, person, "signed-in person");
  const nobody = anonymous(svc);
  PATH_VALUES["GET /api/v1/auth/{rest}:rest"] = () => "get-session";
  const library: [Operation, Caller, Caller][] = [
    [route("POST", "/api/v1/auth/sign-in/email", { email, password: str(256) }), nobody, asPerson],
    [route("POST", "/api/v1/auth/sign-in/username", { username: str(30), password: str(256) }), nobody, asPerson],
    [route("POST", "/api/v1/auth/sign-in/magic-link", { email }), nobody, asPerson],
    [route("POST", "/api/v1/auth/request-password-reset", { email }), nobody, asPerson],
    [route("POST", "/api/v1/auth/reset-password", { newPassword: str(256), token: { type: "string", pattern: "^[A-Za-z0-9_-]{1,128}$" } }), nobody, asPerson],
    [route("GET", "/api/v1/auth/get-session"), asPerson, nobody],
    [route("GET", "/api/v1/auth/{rest}"), nobody, asPerson],
    [route("POST", "/api/v1/auth/update-user", { name: str(120), image: str(2048) }, ["name"]), asPerson, nobody],
    [route("POST", "/api/v1/auth/two-factor/verify-totp", { code: str(6) }), asPerson, nobody],
    [route("POST", "/api/v1/auth/passkey/authenticate/options"), nobody, asPerson],
    // Last: their valid requests change the password and start a second factor.
    [route("POST", "/api/v1/auth/change-password", { currentPassword: str(256), newPassword: str(256) }), asPerson, nobody],
    [route("POST", "/api/v1/auth/two-factor/enable", { password: str(256) }), asPerson, nobody],
    // Signing out is sent by nobody only, so the person stays signed in for the routes above.
    [route("POST", "/api/v1/auth/sign-out"), nobody, nobody],
  ];
  for (const [op, primary, secondary] of library) await fuzzOperation(op, primary, secondary, {}, SMALL);
  summary("auth library", from);
  expectClean([]);
});

/** A smaller sample per class for the hand-written sets. */
const SMALL: Record<Cls, number> = { percent: 2, nul: 3, surrogate: 3, overMax: 3, huge: 2, deep: 2, type: 4, contentType: 3, empty: 2 };

/** JSON-RPC's own error answer (MCP's transport refusals) and OAuth's bearer error (RFC 6750): the protocols /mcp speaks. */
const jsonRpcError = z.object({ jsonrpc: z.literal("2.0"), error: z.object({ code: z.number().int(), message: z.string() }), id: z.unknown() }).strict();
const bearerError = z.object({ error: z.string(), error_description: z.string().optional() }).strict();
const mcpProtocolError = (res: RawResponse) =>
  jsonRpcError.safeParse(res.body).success ||
  (res.status === 401 || res.status === 403 ? bearerError.safeParse(res.body).success && /^Bearer /.test(String(res.headers["www-authenticate"])) : false);

test("/mcp (over https) answers hostile tool calls with an error, never a 5xx, and a refused call writes nothing", async () => {
  const from = mark();
  const token = await mcpToken(https, owner.owner.userId, [owner.ids.location]);
  const mcp = (auth: boolean): Caller => ({
    name: auth ? "MCP client" : "anonymous",
    send: (method, built) =>
      sendRaw(https, {
        method,
        path: built.path,
        headers: { accept: "application/json, text/event-stream", ...(auth ? { authorization: `Bearer ${token}` } : {}), ...built.headers },
        ...(built.body !== undefined ? { body: built.body } : {}),
        address: https.client().address,
      }),
  });
  const listed = await mcp(true).send("POST", {
    path: "/mcp",
    headers: { "content-type": "application/json" },
    body: json({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const tools = (listed.body as { result: { tools: { name: string; inputSchema: Schema }[] } }).result.tools;
  expect(tools.map((t) => t.name)).toContain("update_thing");
  for (const tool of tools) {
    const op: Operation = {
      ...route("POST", "/mcp"),
      key: `MCP ${tool.name}`,
      body: {
        type: "object",
        properties: {
          jsonrpc: { const: "2.0" },
          id: { type: "integer" },
          method: { const: "tools/call" },
          params: { type: "object", properties: { name: { const: tool.name }, arguments: tool.inputSchema }, required: ["name", "arguments"] },
        },
        required: ["jsonrpc", "id", "method", "params"],
      },
      ids: (name) => (name === "id" ? MCP_TOOL_TARGETS[tool.name] : undefined),
    };
    await fuzzOperation(op, mcp(true), mcp(false), { protocolError: mcpProtocolError }, SMALL);
  }
  summary("/mcp", from);
  expectClean([]);
});

test("the shape route refuses what chooses data, unknown shapes and broken offsets with our error body", async () => {
  const from = mark();
  const ownerCaller = signedIn(svc, owner.owner, "owner");
  const cases: [string, string][] = [
    ...["nope", "__proto__", "constructor", "things%00", "%ED%A0%80", "%E0%A4%A", "things.json", "..%2Fthings"].map((name): [string, string] => [
      `unknown shape ${name}`,
      `/api/v1/sync/shape/${name}?offset=-1`,
    ]),
    ...["table=things", "where=true", "columns=id", "params[1]=x", "offset=-1&offset=now"].map((q): [string, string] => [
      `query ${q}`,
      `/api/v1/sync/shape/things?offset=-1&${q}`,
    ]),
    ...["-2", "1_", "0_-1", "99999999999999999999999_0", "1e3_0", "0_inf_0", "%00", ""].map((o): [string, string] => [
      `offset ${o}`,
      `/api/v1/sync/shape/things?offset=${o}`,
    ]),
    ["a handle of 201 characters", `/api/v1/sync/shape/things?offset=0_0&handle=${"h".repeat(201)}`],
    ["a cursor of 41 characters", `/api/v1/sync/shape/things?offset=-1&cursor=${"1".repeat(41)}`],
    ["live with another shape's handle", "/api/v1/sync/shape/things?offset=now&live=true&handle=not-this-one"],
    ["live=maybe", "/api/v1/sync/shape/things?offset=-1&live=maybe"],
  ];
  // Electric's protocol tells a client with a stale handle to start again with a 409 and a control message, not an error body.
  const mustRefetch = (res: RawResponse) => res.status === 409 && Array.isArray(res.body) && JSON.stringify(res.body).includes('"must-refetch"');
  for (const [variant, path] of cases) {
    for (const caller of [ownerCaller, anonymous(svc)]) {
      await check({ op: "GET /api/v1/sync/shape/{name}", variant, cls: "shape" }, caller, () => caller.send("GET", { path, headers: {} }), {
        protocolError: mustRefetch,
      });
    }
  }
  stats.operations.add("GET /api/v1/sync/shape/{name} (hand-written)");
  summary("shape route", from);
  expectClean([]);
});
