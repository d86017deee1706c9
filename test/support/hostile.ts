/**
 * Shared by the hostile-input suites (test/db/fuzz-openapi.test.ts, test/db/cross-tenant.test.ts):
 * requests with exactly the bytes and headers given, a snapshot of the database's state to prove a
 * refused request wrote nothing, the kinds of id the routes take, and a tenant holding a real row
 * of each kind.
 */
import { createECDH, randomBytes } from "node:crypto";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import fc from "fast-check";
import { v7 as uuidv7 } from "uuid";
import { UUID_PATTERN } from "../../shared/ids.js";
import { rows, sql, type Db } from "../../server/db/client.js";
import { memberships } from "../../server/db/schema/index.js";
import { modules } from "../../server/modules/index.js";
import { grantAndCode } from "../../server/oauth/grants.js";
import { PROTOCOL } from "../../sync/protocol.js";
import type { HttpClient, TestService } from "./app.js";

export const PASSWORD = "correct horse battery";
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: unknown;
}

export interface RawRequest {
  method: string;
  /** Sent as is: percent-encoding (good or bad) is the caller's. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Cookies to send (a signed-in client's); none for an anonymous request. */
  cookies?: Map<string, string>;
  /** Loopback address to connect from (a client's own, so per-IP limits see distinct people). */
  address?: string;
}

/** One request with exactly these bytes; our Origin is sent as a browser on our page would. Fails after `timeoutMs` without an answer. */
export function sendRaw(svc: TestService, r: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  const h: Record<string, string> = { origin: svc.config.publicUrl.origin, ...r.headers };
  if (r.cookies?.size) h.cookie = [...r.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  if (r.body !== undefined) h["content-length"] = String(Buffer.byteLength(r.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(svc.url + r.path, { method: r.method, headers: h, ...(r.address ? { localAddress: r.address } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
      res.on("error", reject);
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(r.body);
  });
}

// ---------------------------------------------------------------------------------------------
// Database state

export type Snapshot = Record<string, string | number | null>;

/**
 * Tables whose rows change on refused requests by design: the rate limiters count failures.
 * Everything else in the public schema is in the snapshot, so a new table is watched by default.
 */
const LIMIT_TABLES = new Set(["rate_limits", "auth_rate_limits"]);
/**
 * Queues a background job drains whenever it runs: `push_pending` is filled by a trigger on
 * inbox_items (which the snapshot covers) and emptied by the push dispatcher between any two
 * snapshots, so its state says nothing about what a request wrote.
 */
const BACKGROUND_TABLES = new Set(["push_pending"]);
/**
 * Columns a request writes whatever its answer: a session's last sighting (server/auth/touch-session.ts)
 * and its re-authentication stamp, set once the password is proven even when the change that came
 * with it is then refused (server/auth/reauth.ts).
 */
const TOUCHED_COLUMNS: Record<string, string[]> = { auth_sessions: ["last_seen_at", "updated_at", "reauthenticated_at"] };

interface TableInfo {
  name: string;
  columns: string[];
}

async function publicTables(db: Db): Promise<TableInfo[]> {
  const found = await rows<{ table_name: string; column_name: string }>(
    db,
    sql`SELECT c.table_name, c.column_name FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name NOT LIKE '\\_\\_%'
        ORDER BY c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const r of found) (byTable.get(r.table_name) ?? byTable.set(r.table_name, []).get(r.table_name)!).push(r.column_name);
  return [...byTable].map(([name, columns]) => ({ name, columns })).filter((t) => !LIMIT_TABLES.has(t.name) && !BACKGROUND_TABLES.has(t.name));
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * The state of every table in one query: row count, sum of row_version and latest updated_at where
 * the table has them, the head of sync_log, and for tables with neither (tokens, grants, sessions,
 * invites, ...) a hash of every row, so a revocation or a changed secret shows too.
 */
export async function snapshotter(db: Db): Promise<() => Promise<Snapshot>> {
  const tables = await publicTables(db);
  const parts: string[] = [];
  for (const t of tables) {
    const T = ident(t.name);
    parts.push(`'${t.name}.count', (SELECT count(*) FROM ${T})`);
    const versioned = t.columns.includes("row_version") || t.columns.includes("updated_at");
    if (t.columns.includes("row_version")) parts.push(`'${t.name}.row_version', (SELECT sum(row_version) FROM ${T})`);
    if (t.columns.includes("updated_at") && !TOUCHED_COLUMNS[t.name]?.includes("updated_at"))
      parts.push(`'${t.name}.updated_at', (SELECT max(updated_at)::text FROM ${T})`);
    if (t.name === "sync_log") parts.push(`'sync_log.head', (SELECT max(seq) FROM sync_log)`);
    else if (!versioned || TOUCHED_COLUMNS[t.name]) {
      const cols = t.columns.filter((c) => !TOUCHED_COLUMNS[t.name]?.includes(c)).map(ident);
      parts.push(`'${t.name}.rows', (SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) FROM (SELECT ${cols.join(", ")} FROM ${T}) r)`);
    }
  }
  // json_build_object takes at most 100 arguments: one object per chunk of 50 pairs.
  const chunks: string[] = [];
  for (let i = 0; i < parts.length; i += 50) chunks.push(`json_build_object(${parts.slice(i, i + 50).join(", ")})`);
  const query = sql.raw(`SELECT ${chunks.map((c, i) => `${c} AS s${i}`).join(", ")}`);
  // Every write takes a transaction id. While none was handed out since the last snapshot (and
  // none is in progress), nothing can have changed: the last snapshot stands, at the cost of one
  // tiny query instead of reading every table.
  const xids = sql`SELECT pg_snapshot_xmin(s)::text AS xmin, pg_snapshot_xmax(s)::text AS xmax FROM pg_current_snapshot() s`;
  let last: { xmax: string; snapshot: Snapshot } | undefined;
  return async () => {
    const [x] = await rows<{ xmin: string; xmax: string }>(db, xids);
    if (last && x!.xmin === x!.xmax && last.xmax === x!.xmax) return last.snapshot;
    const [row] = await rows<Record<string, Snapshot>>(db, query);
    const snapshot = Object.assign({}, ...Object.values(row!)) as Snapshot;
    last = x!.xmin === x!.xmax ? { xmax: x!.xmax, snapshot } : undefined;
    return snapshot;
  };
}

/**
 * Every row that belongs to the given locations or users (by location_id, user_id or the row's own
 * id), hashed per table: "changed nothing of A's" is a comparison of two of these.
 */
export async function scopedSnapshotter(db: Db, scope: { locationIds: string[]; userIds: string[] }): Promise<() => Promise<Snapshot>> {
  const tables = await publicTables(db);
  const locs = `ARRAY[${scope.locationIds.map((id) => `'${id}'`).join(",")}]::uuid[]`;
  const users = `ARRAY[${scope.userIds.map((id) => `'${id}'`).join(",")}]::uuid[]`;
  const parts: string[] = [];
  for (const t of tables) {
    const where: string[] = [];
    // A pushed op's record is its pusher's, whichever location the op named.
    if (t.columns.includes("location_id") && !USER_RECORDS.has(t.name)) where.push(`location_id = ANY(${locs})`);
    if (t.columns.includes("user_id")) where.push(`user_id = ANY(${users})`);
    // Registries belong to the locations' owner accounts.
    if (REGISTRY_TABLES.has(t.name)) where.push(`account_id IN (SELECT account_id FROM locations WHERE id = ANY(${locs}))`);
    if (t.name === "locations") where.push(`id = ANY(${locs})`);
    if (t.name === "users") where.push(`id = ANY(${users})`);
    if (!where.length) continue;
    const cols = t.columns.filter((c) => !TOUCHED_COLUMNS[t.name]?.includes(c)).map(ident);
    parts.push(
      `'${t.name}', (SELECT count(*) || ':' || md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) FROM (SELECT ${cols.join(", ")} FROM ${ident(t.name)} WHERE ${where.join(" OR ")}) r)`,
    );
  }
  const chunks: string[] = [];
  for (let i = 0; i < parts.length; i += 50) chunks.push(`json_build_object(${parts.slice(i, i + 50).join(", ")})`);
  const query = sql.raw(`SELECT ${chunks.map((c, i) => `${c} AS s${i}`).join(", ")}`);
  return async () => {
    const [row] = await rows<Record<string, Snapshot>>(db, query);
    return Object.assign({}, ...Object.values(row!)) as Snapshot;
  };
}

/** Tables of the owner account's registries (rows by account_id). */
const REGISTRY_TABLES = new Set(["place_kinds", "types", "type_fields", "brands", "tags", "templates"]);

/** Tables whose rows belong to the user who made them, whatever location they name. */
const USER_RECORDS = new Set(["sync_ops"]);

/** The metrics that differ between two snapshots. */
export function changedMetrics(a: Snapshot, b: Snapshot): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}

/** How each metric moved: counts by how many rows, anything else as "changed". */
export function delta(a: Snapshot, b: Snapshot): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const k of changedMetrics(a, b)) out[k] = k.endsWith(".count") ? Number(b[k]) - Number(a[k]) : "changed";
  return out;
}

// ---------------------------------------------------------------------------------------------
// Ids the routes take

/** Every kind of row a route names by id. A route naming an id of another kind fails the suites until it is added here. */
export const ID_KINDS = [
  "location",
  "place",
  "placeKind",
  "thing",
  "container",
  "type",
  "parentType",
  "groupType",
  "typeField",
  "brand",
  "tag",
  "file",
  "inboxItem",
  "batch",
  "historyEvent",
  "token",
  "grant",
  "session",
  "memberUser",
  "managedUser",
  "opId",
  "template",
  "tag",
  "typeField",
  /** Not an id but a key: the secret field a reveal names (`/secrets/{fieldKey}`). */
  "fieldKey",
  "labelSheet",
  /** Not an id but a short code (`/codes/{code}`): the tenant's thing's. */
  "code",
  "meter",
  "reading",
  "pushSubscription",
  "extraction",
  "loan",
  "contact",
  "move",
  /** A box row of a move: routes name boxes by move and container; only a create names its own id. */
  "moveBox",
  "webhook",
  "report",
  "shareLink",
  "export",
  "invite",
] as const;
export type IdKind = (typeof ID_KINDS)[number];

/** Kinds of id that routes of no module take: the OAuth grants' (server/oauth/) and sync push's op ids. */
const NON_MODULE_KINDS: readonly IdKind[] = ["grant", "opId"];

/**
 * The kinds of id each module's manifest says its routes take (server/modules/index.ts) are the
 * kinds above: a kind here that no manifest names, or one a manifest names that is missing here
 * (so no tenant holds a row of it), fails every hostile suite when it loads.
 */
export function checkIdKinds(named: readonly string[]): void {
  const known = new Set<string>(ID_KINDS);
  const claimed = new Set([...named, ...NON_MODULE_KINDS]);
  const unclaimed = ID_KINDS.filter((k) => !claimed.has(k));
  const unknown = [...claimed].filter((k) => !known.has(k));
  if (unclaimed.length) throw new Error(`no module's manifest names the id kinds ${unclaimed.join(", ")}: add them to their owner's idKinds`);
  if (unknown.length)
    throw new Error(`manifests name the id kinds ${unknown.join(", ")}, which the hostile suites do not know: add them to ID_KINDS with a maker`);
}
checkIdKinds(modules.flatMap((m) => m.idKinds ?? []));

/**
 * An id a request carries: the kind of row it names, and whether the request makes that row with
 * this id (a device-made id: the row must not exist yet) instead of naming an existing one.
 */
export interface IdRef {
  kind: IdKind;
  fresh: boolean;
}

/** The kind of row a path segment's parameter names: `/things/{id}` names a thing. */
const PATH_KINDS: Record<string, IdKind> = {
  locations: "location",
  places: "place",
  things: "thing",
  history: "historyEvent",
  inbox: "inboxItem",
  files: "file",
  // `/things/{id}/photos/{fileId}`: a thing's photo is named by its file.
  photos: "file",
  tokens: "token",
  grants: "grant",
  sessions: "session",
  members: "memberUser",
  "managed-accounts": "managedUser",
  templates: "template",
  types: "type",
  "type-fields": "typeField",
  "place-kinds": "placeKind",
  secrets: "fieldKey",
  "label-sheets": "labelSheet",
  codes: "code",
  meters: "meter",
  "push-subscriptions": "pushSubscription",
  loans: "loan",
  moves: "move",
  // `/moves/{id}/boxes/{containerId}`: a box is named by its container.
  boxes: "container",
  webhooks: "webhook",
  reports: "report",
  "share-links": "shareLink",
  exports: "export",
  invites: "invite",
};

/** The kind of row a query or body field names, by its name. */
const FIELD_KINDS: Record<string, IdKind> = {
  locationId: "location",
  locationIds: "location",
  placeId: "place",
  parentId: "place",
  kindId: "placeKind",
  containerId: "container",
  into: "thing",
  typeId: "type",
  groupIds: "groupType",
  placeKindId: "placeKind",
  brandId: "brand",
  tagIds: "tag",
  photoFileIds: "file",
  fileIds: "file",
  batchId: "batch",
  thingId: "thing",
  templateId: "template",
  tagId: "tag",
  seen: "thing",
  notHere: "thing",
  movedIn: "thing",
  meterId: "meter",
  fileId: "file",
  extractionId: "extraction",
  userId: "memberUser",
  contactId: "contact",
  personId: "contact",
  toLocationId: "location",
  moveId: "move",
  placeIds: "place",
  typeIds: "type",
  thingIds: "thing",
  // A share link's target: the fuzzers send the example scope "thing".
  targetId: "thing",
};

/** What a create route makes, for the `id` it may be given (a device-made id). */
const CREATES: [RegExp, IdKind][] = [
  [/^POST \/api\/v1\/locations$/, "location"],
  [/^POST \/api\/v1\/locations\/\{id\}\/things$/, "thing"],
  [/^POST \/api\/v1\/locations\/\{id\}\/places$/, "place"],
  [/^POST \/api\/v1\/files$/, "file"],
  [/^POST \/api\/v1\/things\/\{id\}\/save-as-template$/, "template"],
  [/^POST \/api\/v1\/locations\/\{id\}\/types$/, "type"],
  [/^POST \/api\/v1\/locations\/\{id\}\/place-kinds$/, "placeKind"],
  [/^POST \/api\/v1\/locations\/\{id\}\/brands$/, "brand"],
  [/^POST \/api\/v1\/locations\/\{id\}\/tags$/, "tag"],
  [/^POST \/api\/v1\/(types|place-kinds)\/\{id\}\/fields$/, "typeField"],
  [/^POST \/api\/v1\/things\/\{id\}\/box-checks$/, "opId"],
  [/^POST \/api\/v1\/things\/\{id\}\/meters$/, "meter"],
  [/^POST \/api\/v1\/meters\/\{id\}\/readings$/, "reading"],
  [/^POST \/api\/v1\/things\/\{id\}\/loans$/, "loan"],
  [/^POST \/api\/v1\/locations\/\{id\}\/moves$/, "move"],
  [/^POST \/api\/v1\/moves\/\{id\}\/boxes$/, "moveBox"],
];

/** A body's `id` that names an existing row rather than one the request makes. */
const NAMES: [RegExp, IdKind][] = [
  [/^POST \/api\/v1\/codes\/\{code\}\/claim$/, "thing"],
  // A loan's return place (returnPlace {type, id}); the example's type is "place".
  [/^POST \/api\/v1\/loans\/\{id\}\/return$/, "place"],
  // Pushed ops: an `id` nested in args (the op's own target is read apart) is loan.return's returnPlace.
  [/^POST \/api\/v1\/sync\/push$/, "place"],
];

/** What an MCP tool's `id` argument names (server/mcp/tools.ts). */
export const MCP_TOOL_TARGETS: Record<string, IdKind> = { get_thing: "thing", update_thing: "thing", move_thing: "thing", review_inbox_item: "inboxItem" };

/** What each pushed op's `args.id` names (sync/ops.ts), fresh for the ops that create. */
export function opTargetKind(opName: string): IdRef | undefined {
  const [domain = "", verb] = opName.split(".");
  const byDomain: Record<string, IdKind> = {
    thing: "thing",
    place: "place",
    inbox: "inboxItem",
    type: "type",
    type_field: "typeField",
    place_kind: "placeKind",
    brand: "brand",
    tag: "tag",
    template: "template",
    meter: "meter",
    reading: "reading",
    boxcheck: "opId",
    // receipt.capture makes a purchase, a row no route names by id.
    receipt: "opId",
    // code.claim names the thing (or place) the label goes on.
    code: "thing",
    loan: "loan",
    move: "move",
    box: "moveBox",
  };
  const kind: IdKind | undefined = byDomain[domain];
  return kind && { kind, fresh: verb === "create" || verb === "capture" || verb === "record" || verb === "add" };
}

/**
 * The kind of id a route's parameter holds, or undefined when there is no rule for it (the suites
 * then fail: a new kind must be added on purpose). `where` is path, query or body; `name` the
 * parameter's or field's name (for a path parameter, the segment before it decides).
 */
export function idKindOf(method: string, path: string, where: "path" | "query" | "body", name: string): IdRef | undefined {
  const route = `${method.toUpperCase()} ${path}`;
  if (where === "path") {
    const segments = path.split("/");
    const i = segments.indexOf(`{${name}}`);
    const kind = PATH_KINDS[segments[i - 1] ?? ""];
    return kind && { kind, fresh: false };
  }
  if (name === "id") {
    const named = NAMES.find(([re]) => re.test(route))?.[1];
    if (named) return { kind: named, fresh: false };
    const made = CREATES.find(([re]) => re.test(route))?.[1];
    return made && { kind: made, fresh: true };
  }
  // The new thing a loan's split makes: a device-made id that must be free (B's own taken one: its box, not the thing lent).
  if (name === "splitThingId") return { kind: "container", fresh: true };
  // A type's parent is a type (elsewhere parentId names a place).
  if (name === "parentId" && /\/types(\/|$)/.test(path)) return { kind: "parentType", fresh: false };
  const kind = FIELD_KINDS[name];
  return kind && { kind, fresh: false };
}

// ---------------------------------------------------------------------------------------------
// A tenant with a real row of every kind

export type Client = HttpClient & { email: string; userId: string };

export interface Tenant {
  name: string;
  owner: Client;
  /** One live row of each kind, renewed by `renew()` when a request used it up. */
  ids: Record<IdKind, string>;
  /** Every location and user this tenant's rows hang from (for scoped snapshots). */
  scope: { locationIds: string[]; userIds: string[] };
  /** Makes a new row of each kind whose current one was deleted, revoked, resolved or undone. */
  renew(): Promise<IdKind[]>;
  /** The rowVersion a write to this row must carry (things, places, locations, memberships). */
  rowVersion(kind: IdKind, id: string): Promise<number>;
}

/** An access token for /mcp of a grant of `userId`'s to the given locations (as the consent page would make), on a service started over https. */
export async function mcpToken(
  https: TestService,
  userId: string,
  locationIds: string[],
  scopes: ("svc:read" | "svc:write")[] = ["svc:read", "svc:write"],
): Promise<string> {
  const oauth = https.services.oauth;
  if (!oauth) throw new Error("/mcp needs a service whose SVC_PUBLIC_URL is https");
  const clientId = "https://client.example/app.json";
  const clientName = `client ${uuidv7()}`;
  await grantAndCode(
    https.database.db,
    { userId, clientName, scopes, locationIds, mfaProven: false },
    { clientId, redirectUri: "https://client.example/cb", codeChallenge: "x".repeat(43), resource: oauth.resource },
  );
  const [grant] = await rows<{ id: string }>(https.database.db, sql`SELECT id FROM oauth_grants WHERE client_name = ${clientName}`);
  return oauth.tokens.issue({ sub: userId, clientId, scope: scopes.join(" "), grantId: grant!.id });
}

/** A JSON-RPC call to /mcp with an access token. */
export function mcpCall(https: TestService, token: string, method: string, params: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return sendRaw(https, {
    method: "POST",
    path: "/mcp",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    address: https.client().address,
  });
}

async function ok<T = any>(res: Promise<{ status: number; body: T }>, what: string, expected = [200, 201]): Promise<T> {
  const r = await res;
  if (!expected.includes(r.status)) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

async function upload(svc: TestService, c: Client, locationId: string): Promise<string> {
  const res = await sendRaw(svc, {
    method: "POST",
    path: `/api/v1/files?locationId=${locationId}`,
    cookies: c.cookies,
    address: c.address,
    headers: { "content-type": "image/png" },
    body: PNG,
  });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text.slice(0, 200)}`);
  return (res.body as { id: string }).id;
}

/**
 * A person with their personal location and, in it, a row of every kind the routes name: places,
 * things (one a container), a brand, a file, a captured draft in the inbox (with its batch and op),
 * history, a personal token, an OAuth grant, a second session, a member and a managed account.
 */
export async function seedTenant(svc: TestService, name: string): Promise<Tenant> {
  const db = svc.database.db;
  const owner = await svc.signedIn(`${name} Owner`);
  const me = await ok(owner.get("/api/v1/me"), "me");
  const location = me.locations[0].id as string;
  // Types of the tenant's own making (a built-in one cannot be renamed): one to name, a parent and a group for it.
  const newType = async (body: object) => (await ok(owner.post(`/api/v1/locations/${location}/types`, body), "type")) as { id: string };
  const type = await newType({ name: `${name} Gadget` });
  const parentType = await newType({ name: `${name} Device` });
  const groupType = await newType({ name: `${name} Insured`, isGroup: true });
  const placeKind = (await ok(owner.post(`/api/v1/locations/${location}/place-kinds`, { name: `${name} Shed` }), "place kind")) as { id: string };
  const brand = (await ok(owner.post(`/api/v1/locations/${location}/brands`, { name: `${name} Brand` }), "brand")).id as string;
  // A secret field of the type: what reveals name (`/secrets/{fieldKey}`).
  await ok(owner.post(`/api/v1/types/${type.id}/fields`, { key: "pin", label: `${name} PIN`, kind: "text", secret: true }), "secret field");
  const member = await svc.signedIn(`${name} Member`);
  await db.insert(memberships).values({ id: uuidv7(), locationId: location, userId: member.userId, role: "member" });
  // A second device of the owner: its session can be signed out without signing the owner out.
  // Each from an address of its own: sign-in attempts are limited per address.
  const device = () => svc.client();
  await ok(device().post("/api/v1/auth/sign-in/email", { email: owner.email, password: PASSWORD }), "second sign-in");
  let n = 0;
  const ids = { location, type: type.id, parentType: parentType.id, groupType: groupType.id, placeKind: placeKind.id, brand, fieldKey: "pin" } as Record<
    IdKind,
    string
  >;
  ids.typeField = (await ok(owner.post(`/api/v1/types/${type.id}/fields`, { key: "hostile_note", label: `${name} note`, kind: "text" }), "type field")).id;
  ids.tag = (await ok(owner.post(`/api/v1/locations/${location}/tags`, { name: `${name} Tag` }), "tag")).id;
  const scope = { locationIds: [location], userIds: [owner.userId, member.userId] };

  const makers: Partial<Record<IdKind, () => Promise<void>>> = {
    place: async () => {
      ids.place = (await ok(owner.post(`/api/v1/locations/${location}/places`, { name: `${name} Shelf ${++n}` }), "place")).id;
    },
    container: async () => {
      ids.container = (await ok(owner.post(`/api/v1/locations/${location}/things`, { name: `${name} Box ${++n}`, isContainer: true }), "container")).id;
    },
    thing: async () => {
      const made = await ok(owner.post(`/api/v1/locations/${location}/things`, { name: `${name} Drill ${++n}` }), "thing");
      ids.thing = made.id;
      ids.code = made.shortCode;
      const [event] = await rows<{ id: string }>(db, sql`SELECT id FROM history_entries WHERE entity_id = ${ids.thing} ORDER BY at DESC LIMIT 1`);
      ids.historyEvent = event!.id;
    },
    historyEvent: async () => makers.thing!(),
    template: async () => {
      ids.template = (
        await ok(owner.post(`/api/v1/things/${ids.thing}/save-as-template`, { name: `${name} Template ${++n}`, locationIds: [location] }), "template")
      ).id;
    },
    file: async () => {
      ids.file = await upload(svc, owner, location);
    },
    inboxItem: async () => {
      const opId = uuidv7();
      const batch = uuidv7();
      const pushed = await ok(
        owner.post("/api/v1/sync/push", {
          clientId: `${name}-device`,
          protocol: PROTOCOL,
          ops: [
            {
              id: opId,
              name: "thing.capture",
              locationId: location,
              at: new Date().toISOString(),
              args: { id: uuidv7(), name: `${name} Capture ${++n}`, batchId: batch },
            },
          ],
        }),
        "capture",
      );
      if (pushed.results[0].status !== "applied") throw new Error(`capture: ${JSON.stringify(pushed.results[0])}`);
      const [item] = await rows<{ id: string; batch_id: string }>(
        db,
        sql`SELECT id, batch_id FROM inbox_items WHERE location_id = ${location} AND kind = 'draft' AND status = 'open' AND deleted_at IS NULL ORDER BY created_at DESC LIMIT 1`,
      );
      ids.inboxItem = item!.id;
      ids.batch = item!.batch_id;
      ids.opId = opId;
    },
    batch: async () => makers.inboxItem!(),
    opId: async () => makers.inboxItem!(),
    token: async () => {
      ids.token = (await ok(owner.post("/api/v1/tokens", { name: `${name} script ${++n}`, scope: "read", locationIds: [location] }), "token")).id;
    },
    grant: async () => {
      await grantAndCode(
        db,
        { userId: owner.userId, clientName: `${name} app ${++n}`, scopes: ["svc:read"], locationIds: [location], mfaProven: false },
        {
          clientId: "https://client.example/app.json",
          redirectUri: "https://client.example/cb",
          codeChallenge: "x".repeat(43),
          resource: `${svc.config.publicUrl.origin}/mcp`,
        },
      );
      const [grant] = await rows<{ id: string }>(
        db,
        sql`SELECT id FROM oauth_grants WHERE user_id = ${owner.userId} AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1`,
      );
      ids.grant = grant!.id;
    },
    session: async () => {
      if (ids.session) await ok(device().post("/api/v1/auth/sign-in/email", { email: owner.email, password: PASSWORD }), "another sign-in");
      // The newest session that is not the one the owner's client uses: the second device's.
      const sessions = (await ok(owner.get("/api/v1/me/sessions"), "sessions")).items as { id: string; current: boolean }[];
      ids.session = sessions.find((s) => !s.current)!.id;
    },
    webhook: async () => {
      ids.webhook = (
        await ok(owner.post(`/api/v1/locations/${location}/webhooks`, { url: `https://hooks.example/${name}/${++n}`, events: ["thing.created"] }), "webhook")
      ).id;
    },
    meter: async () => {
      ids.meter = (await ok(owner.post(`/api/v1/things/${ids.thing}/meters`, { kind: "water", unit: "m3", label: `${name} Meter ${++n}` }), "meter")).id;
    },
    reading: async () => {
      ids.reading = (await ok(owner.post(`/api/v1/meters/${ids.meter}/readings`, { value: String(++n) }), "reading")).id;
    },
    memberUser: async () => {
      const m = await svc.signedIn(`${name} Member ${++n}`);
      await db.insert(memberships).values({ id: uuidv7(), locationId: location, userId: m.userId, role: "member" });
      ids.memberUser = m.userId;
      scope.userIds.push(m.userId);
    },
    extraction: async () => {
      ids.extraction = (await ok(owner.post(`/api/v1/things/${ids.thing}/extractions`, { fileIds: [ids.file] }), "extraction")).id;
    },
    pushSubscription: async () => {
      // A public address literal: the guard lets it through without DNS, and nothing is sent to it here.
      const ua = createECDH("prime256v1");
      ua.generateKeys();
      const keys = { p256dh: ua.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
      ids.pushSubscription = (
        await ok(owner.post("/api/v1/me/push-subscriptions", { endpoint: `https://93.184.215.14/push/${name}-${++n}`, keys }), "push subscription")
      ).id;
    },
    move: async () => {
      ids.move = (await ok(owner.post(`/api/v1/locations/${location}/moves`, { name: `${name} Move ${++n}` }), "move")).id;
    },
    moveBox: async () => {
      const crate = (await ok(owner.post(`/api/v1/locations/${location}/things`, { name: `${name} Crate ${++n}`, isContainer: true }), "crate")).id as string;
      await ok(owner.post(`/api/v1/moves/${ids.move}/boxes`, { containerId: crate }), "box");
      const [box] = await rows<{ id: string }>(db, sql`SELECT id FROM move_boxes WHERE move_id = ${ids.move} AND container_id = ${crate}`);
      ids.moveBox = box!.id;
    },
    report: async () => {
      ids.report = (await ok(owner.post("/api/v1/reports/inventory", { scope: { locationId: location } }), "report", [202])).id;
    },
    shareLink: async () => {
      ids.shareLink = (await ok(owner.post("/api/v1/share-links", { scope: "thing", targetId: ids.thing, title: `${name} link ${++n}` }), "share link")).id;
    },
    labelSheet: async () => {
      ids.labelSheet = (await ok(owner.post(`/api/v1/locations/${location}/label-sheets`, { count: 1 }), "label sheet")).id;
    },
    loan: async () => {
      const lent = await ok(owner.post(`/api/v1/locations/${location}/things`, { name: `${name} Ladder ${++n}` }), "thing to lend");
      const loan = await ok(owner.post(`/api/v1/things/${lent.id}/loans`, { direction: "out", person: { name: `${name} Neighbour ${n}` } }), "loan");
      ids.loan = loan.id;
      ids.contact = loan.person.id;
    },
    contact: async () => makers.loan!(),
    export: async () => {
      // The owner's unfinished exports are limited: older ones are stood down so a new one can start.
      await db.execute(sql`UPDATE exports SET status = 'cancelled' WHERE requested_by = ${owner.userId} AND status IN ('queued', 'running')`);
      ids.export = (await ok(owner.post("/api/v1/exports", { scope: "location", locationId: location }), "export")).id;
    },
    invite: async () => {
      ids.invite = (await ok(owner.post(`/api/v1/locations/${location}/invites`, { role: "viewer" }), "invite")).id;
    },
    managedUser: async () => {
      ids.managedUser = (
        await ok(
          owner.post(`/api/v1/locations/${location}/managed-accounts`, {
            username: `${name.toLowerCase()}_kid_${++n}_${uuidv7().slice(-6)}`,
            displayName: `${name} Kid`,
          }),
          "managed account",
        )
      ).id;
      scope.userIds.push(ids.managedUser);
    },
  };
  ids.memberUser = member.userId;
  for (const kind of [
    "place",
    "container",
    "thing",
    "template",
    "file",
    "inboxItem",
    "token",
    "grant",
    "session",
    "managedUser",
    "meter",
    "reading",
    "labelSheet",
    "pushSubscription",
    "extraction",
    "loan",
    "move",
    "moveBox",
    "webhook",
    "report",
    "shareLink",
    "export",
    "invite",
  ] as IdKind[])
    await makers[kind]!();

  /** Whether each kind's current row can still be acted on. */
  const alive = async (): Promise<Record<IdKind, boolean>> => {
    const [r] = await rows<Record<string, boolean>>(
      db,
      sql`SELECT
        EXISTS (SELECT 1 FROM places WHERE id = ${ids.place} AND deleted_at IS NULL) AS place,
        -- A container that became a box of an active move cannot be added to another: made anew.
        EXISTS (SELECT 1 FROM things WHERE id = ${ids.container} AND deleted_at IS NULL AND is_container)
          AND NOT EXISTS (SELECT 1 FROM move_boxes b JOIN moves m ON m.id = b.move_id WHERE b.container_id = ${ids.container} AND b.deleted_at IS NULL AND m.status = 'active') AS container,
        -- A thing lent out by a request cannot be lent again: made anew (a loan's create is sent in several id cases).
        EXISTS (SELECT 1 FROM things WHERE id = ${ids.thing} AND deleted_at IS NULL)
          AND NOT EXISTS (SELECT 1 FROM loans WHERE thing_id = ${ids.thing} AND returned_at IS NULL) AS thing,
        EXISTS (SELECT 1 FROM history_entries WHERE id = ${ids.historyEvent} AND undone_at IS NULL AND undoable_until > now() + interval '1 minute') AS "historyEvent",
        EXISTS (SELECT 1 FROM files WHERE id = ${ids.file} AND deleted_at IS NULL) AS file,
        EXISTS (SELECT 1 FROM inbox_items WHERE id = ${ids.inboxItem} AND deleted_at IS NULL AND status = 'open') AS "inboxItem",
        EXISTS (SELECT 1 FROM personal_tokens WHERE id = ${ids.token} AND revoked_at IS NULL) AS token,
        EXISTS (SELECT 1 FROM oauth_grants WHERE id = ${ids.grant} AND revoked_at IS NULL) AS grant,
        EXISTS (SELECT 1 FROM auth_sessions WHERE id = ${ids.session}) AS session,
        EXISTS (SELECT 1 FROM memberships WHERE user_id = ${ids.memberUser} AND location_id = ${location} AND deleted_at IS NULL AND role = 'member') AS "memberUser",
        EXISTS (SELECT 1 FROM managed_accounts WHERE user_id = ${ids.managedUser}) AS "managedUser",
        EXISTS (SELECT 1 FROM templates WHERE id = ${ids.template} AND deleted_at IS NULL) AS template,
        EXISTS (SELECT 1 FROM meters m JOIN things t ON t.id = m.thing_id WHERE m.id = ${ids.meter} AND m.deleted_at IS NULL AND t.deleted_at IS NULL) AS meter,
        EXISTS (SELECT 1 FROM readings r JOIN meters m ON m.id = r.meter_id WHERE r.id = ${ids.reading} AND m.deleted_at IS NULL) AS reading,
        EXISTS (SELECT 1 FROM push_subscriptions WHERE id = ${ids.pushSubscription}) AS "pushSubscription",
        EXISTS (SELECT 1 FROM loans l JOIN things t ON t.id = l.thing_id WHERE l.id = ${ids.loan} AND l.returned_at IS NULL AND t.deleted_at IS NULL) AS loan,
        EXISTS (SELECT 1 FROM contacts WHERE id = ${ids.contact} AND deleted_at IS NULL) AS contact,
        EXISTS (SELECT 1 FROM extractions e JOIN things t ON t.id = e.thing_id WHERE e.id = ${ids.extraction} AND t.deleted_at IS NULL) AS extraction,
        EXISTS (SELECT 1 FROM moves WHERE id = ${ids.move} AND status = 'active' AND deleted_at IS NULL) AS move,
        EXISTS (SELECT 1 FROM webhooks WHERE id = ${ids.webhook}) AS webhook,
        EXISTS (SELECT 1 FROM share_links WHERE id = ${ids.shareLink} AND revoked_at IS NULL) AS "shareLink",
        EXISTS (SELECT 1 FROM exports WHERE id = ${ids.export} AND status = 'queued') AS export,
        EXISTS (SELECT 1 FROM invites WHERE id = ${ids.invite} AND revoked_at IS NULL AND accepted_at IS NULL) AS invite`,
    );
    // A field archived by a request can still be named (and changed): it stays usable.
    return {
      location: true,
      type: true,
      parentType: true,
      groupType: true,
      typeField: true,
      placeKind: true,
      brand: true,
      tag: true,
      fieldKey: true,
      batch: true,
      opId: true,
      // Label sheets are never deleted.
      labelSheet: true,
      // Only ever named as an id already taken (a create's own id): a removed box's row still holds it.
      moveBox: true,
      // The thing's: made anew with it.
      code: true,
      // Report jobs are never deleted (only their files expire).
      report: true,
      ...r,
    } as Record<IdKind, boolean>;
  };

  return {
    name,
    owner,
    ids,
    scope,
    async renew() {
      const state = await alive();
      const dead = ID_KINDS.filter((k) => !state[k]);
      // A thing made anew brings its own history event; a capture its item, batch and op.
      for (const kind of dead) if (kind !== "historyEvent" || !dead.includes("thing")) await makers[kind]!();
      return dead;
    },
    async rowVersion(kind, id) {
      const table = {
        location: "locations",
        place: "places",
        thing: "things",
        container: "things",
        type: "types",
        parentType: "types",
        groupType: "types",
        typeField: "type_fields",
        placeKind: "place_kinds",
        brand: "brands",
        tag: "tags",
        template: "templates",
        meter: "meters",
        loan: "loans",
        move: "moves",
        webhook: "webhooks",
      }[kind as string];
      if (kind === "memberUser") {
        const [m] = await rows<{ v: number }>(
          db,
          sql`SELECT row_version AS v FROM memberships WHERE user_id = ${id} AND deleted_at IS NULL ORDER BY created_at DESC LIMIT 1`,
        );
        return m?.v ?? 1;
      }
      if (!table) return 1;
      const [r] = await rows<{ v: number }>(db, sql`SELECT row_version AS v FROM ${sql.identifier(table)} WHERE id = ${id}`);
      return r?.v ?? 1;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The operations of the OpenAPI document, and valid values for their schemas

/** The seed of every random choice the hostile suites make. */
export const SEED = 20_240_611;

export type Schema = Record<string, any>;

export interface Operation {
  key: string;
  method: string;
  /** OpenAPI template: /api/v1/things/{id} */
  path: string;
  auth: "required" | "optional" | "none";
  pathParams: string[];
  query: { name: string; required: boolean; schema: Schema }[];
  /** The JSON body's schema (with its own $defs), when the operation takes one. */
  body?: Schema;
  /** Id kinds of body fields this operation names its own way (an MCP tool's `id`). */
  ids?: (name: string) => IdKind | undefined;
}

/**
 * Every operation of the OpenAPI document at /api/v1/openapi.json that comes from our route
 * definitions (those with `x-auth-mode`). The ones described by hand (the auth library's, OAuth's,
 * /mcp, /health) have hand-written hostile sets. Each schema is handed on with the document's
 * named schemas as its `$defs`, so `deref` can follow its pointers.
 */
export function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  const $defs = (doc.components?.schemas ?? {}) as Schema;
  const withDefs = (schema: Schema): Schema => ({ ...schema, $defs });
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, o] of Object.entries(methods)) {
      if (!o["x-auth-mode"]) continue;
      const params = ((o.parameters ?? []) as { name: string; in: string; required: boolean; schema: Schema }[]).map((p) => ({
        ...p,
        schema: withDefs(p.schema),
      }));
      ops.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        auth: o["x-auth-mode"],
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: params.filter((p) => p.in === "query").map((p) => ({ name: p.name, required: p.required, schema: p.schema })),
        ...(o.requestBody?.content["application/json"] ? { body: withDefs(o.requestBody.content["application/json"].schema) } : {}),
      });
    }
  }
  return ops;
}

/** Follows a local $ref (#/$defs/X, or the document's #/components/schemas/X) against the schema that holds the $defs. */
export function deref(s: Schema, root: Schema): Schema {
  let out = s;
  for (let i = 0; out?.$ref && i < 10; i++) out = root.$defs?.[String(out.$ref).replace(/^#\/(\$defs|components\/schemas)\//, "")] ?? {};
  return out ?? {};
}

/** The non-null alternative of a nullable schema (anyOf [X, null]); the schema itself otherwise. */
export function mainOf(s: Schema, root: Schema): Schema {
  const d = deref(s, root);
  const alts = (d.anyOf ?? d.oneOf) as Schema[] | undefined;
  if (!alts) return d;
  const first = alts.map((a) => deref(a, root)).find((a) => a.type !== "null");
  return first ?? d;
}

export const nullable = (s: Schema, root: Schema) => ((deref(s, root).anyOf ?? []) as Schema[]).some((a) => deref(a, root).type === "null");
export const isUuid = (s: Schema) => s?.type === "string" && s.pattern === UUID_PATTERN.source;

export interface ExampleContext {
  /** The schema holding the $defs. */
  root: Schema;
  /** The rowVersion a write must carry. */
  rowVersion: number;
  /** The id a uuid field named `name` gets. */
  idFor(name: string): string;
}

let made = 0;

/** A string that matches the schema's pattern and lengths, the same one every run. */
function matching(m: Schema): string {
  const found = fc.sample(
    fc.stringMatching(new RegExp(m.pattern as string)).filter((x) => x.length >= (m.minLength ?? 0) && x.length <= (m.maxLength ?? Infinity)),
    { seed: SEED, numRuns: 1 },
  )[0];
  if (found === undefined) throw new Error(`no example for pattern ${m.pattern}`);
  return found;
}

/** A valid value for `s`: required properties only (and one optional one when nothing else is required), ids from `cx.idFor`. */
export function exampleOf(s: Schema, name: string, cx: ExampleContext): unknown {
  const m = mainOf(s, cx.root);
  if ("const" in m) return m.const;
  if (m.enum) return m.enum[0];
  switch (m.type) {
    case "string": {
      if (isUuid(m)) return cx.idFor(name);
      if (m.format === "email") return `someone${++made}-${Date.now()}@example.test`;
      if (m.format === "date-time") return new Date(Date.now() + 86_400_000).toISOString();
      if (m.format === "date") return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      if (name === "password" || name === "currentPassword") return PASSWORD;
      if (name === "newPassword") return `${PASSWORD} again`;
      if (name === "username") return `someone_${++made}_${uuidv7().slice(-6)}`;
      if (m.pattern) return matching(m);
      const text = `Some ${name} ${++made}`;
      return text.padEnd(m.minLength ?? 0, "x").slice(0, m.maxLength ?? text.length);
    }
    case "integer":
      if (name === "rowVersion" || name === "baseVersion") return cx.rowVersion;
      if (name === "protocol") return PROTOCOL;
      return Math.max(m.minimum ?? 1, 1);
    case "number":
      return 1;
    case "boolean":
      return false;
    case "array":
      return Array.from({ length: Math.max(m.minItems ?? 0, 0) }, () => exampleOf(m.items ?? {}, name, cx));
    case "object": {
      const props = (m.properties ?? {}) as Record<string, Schema>;
      const required = (m.required ?? []) as string[];
      const out: Record<string, unknown> = {};
      for (const k of required) out[k] = exampleOf(props[k]!, k, cx);
      if (!required.some((k) => k !== "rowVersion")) {
        const optional = Object.keys(props).find((k) => !required.includes(k) && mainOf(props[k]!, cx.root).type === "string");
        if (optional) out[optional] = exampleOf(props[optional]!, optional, cx);
      }
      return out;
    }
    default:
      return {};
  }
}
