/**
 * Devices pushing their outboxes at a real server process over loopback, and the checks that every
 * op landed exactly once (sync/SPEC.md PU5, PU6): for the tests that kill the server or take its
 * database away while the devices push. A device's outbox is a list of batches of thing.create and
 * thing.update ops with distinct op ids; updates carry no baseVersion (last writer wins, VE4), so an
 * op applied twice shows as one rowVersion and one history entry too many.
 */
import { request as httpRequest, type Agent, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { v7 as uuidv7 } from "uuid";
import { PROTOCOL, type OpResult, type PushOp } from "../../sync/protocol.js";

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface SendOptions {
  body?: unknown;
  cookie?: string;
  /** The loopback address to connect from (each person gets one, so per-IP limits see people). */
  address?: string;
  /** A keep-alive agent to send through; by default each request has a connection of its own. */
  agent?: Agent;
  /** Called with the answer's head; returning true abandons the answer, as a device whose connection broke would. */
  onHead?: (res: IncomingMessage) => boolean;
}

/** Thrown when no answer came back: the connection was refused, broke, or the answer was abandoned. */
export class NoAnswer extends Error {}

/** One request on its own connection, with the Origin a browser on `origin` sends. */
export function send(origin: string, method: string, path: string, opts: SendOptions = {}): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string> = { origin };
  if (payload !== undefined) headers["content-type"] = "application/json";
  if (opts.cookie) headers.cookie = opts.cookie;
  return new Promise((resolve, reject) => {
    const req = httpRequest(origin + path, { method, headers, agent: opts.agent ?? false, ...(opts.address ? { localAddress: opts.address } : {}) }, (res) => {
      if (opts.onHead?.(res)) {
        res.destroy();
        reject(new NoAnswer("the answer was abandoned"));
        return;
      }
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", (err) => reject(new NoAnswer(err.message)));
    });
    req.on("error", (err) => reject(new NoAnswer(err.message)));
    req.end(payload);
  });
}

let addresses = 0;
/** 127.0.2.1, 127.0.2.2, ...: a source address per device. */
const nextAddress = () => `127.0.${2 + Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`;

export interface Device {
  name: string;
  clientId: string;
  address: string;
  cookie: string;
  userId: string;
  locationId: string;
  /** The outbox: batches pushed in this order, each until it gets an answer. */
  batches: PushOp[][];
  /** Per thing this device creates: how many of its updates there are and the last one's description. */
  expected: Map<string, { updates: number; description: string | null }>;
}

/** Signs a new person up and in from their own address; their device pushes into their personal location. */
export async function signedInDevice(origin: string, name: string): Promise<Device> {
  const address = nextAddress();
  const email = `${name.toLowerCase().replace(/\W+/g, "-")}-${uuidv7().slice(-8)}@example.test`;
  const credentials = { email, password: "correct horse battery" };
  const up = await send(origin, "POST", "/api/v1/auth/sign-up", { body: { ...credentials, name }, address });
  if (up.status !== 200) throw new Error(`sign-up: ${up.status} ${up.body}`);
  const signIn = await send(origin, "POST", "/api/v1/auth/sign-in/email", { body: credentials, address });
  if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status} ${signIn.body}`);
  const cookie = (signIn.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const me = await send(origin, "GET", "/api/v1/me", { cookie, address });
  const body = JSON.parse(me.body) as { user: { id: string }; locations: { id: string }[] };
  return { name, clientId: `${name}-device`, address, cookie, userId: body.user.id, locationId: body.locations[0]!.id, batches: [], expected: new Map() };
}

/**
 * Fills the device's outbox: the first batch creates `size` things; each later one creates half
 * that many and updates as many things made by earlier batches, picked by `random`.
 */
export function planOutbox(device: Device, batches: number, size: number, random: () => number): void {
  const at = new Date().toISOString();
  const made: string[] = [];
  for (let b = 0; b < batches; b++) {
    const creates = b === 0 ? size : size / 2;
    const ops: PushOp[] = [];
    for (let i = 0; i < size - creates; i++) {
      const id = made[Math.floor(random() * made.length)]!;
      const description = `${device.name} batch ${b} update ${i}`;
      const e = device.expected.get(id)!;
      e.updates++;
      e.description = description;
      ops.push({ id: uuidv7(), name: "thing.update", locationId: device.locationId, args: { id, patch: { description } }, at });
    }
    for (let i = 0; i < creates; i++) {
      const id = uuidv7();
      ops.push({ id: uuidv7(), name: "thing.create", locationId: device.locationId, args: { id, name: `${device.name} thing ${b}.${i}` }, at });
      device.expected.set(id, { updates: 0, description: null });
    }
    made.push(...ops.filter((o) => o.name === "thing.create").map((o) => (o.args as { id: string }).id));
    device.batches.push(ops);
  }
}

export const pushBody = (device: Device, ops: PushOp[]) => ({ clientId: device.clientId, protocol: PROTOCOL, ops });

/**
 * What the devices were told. A batch's first push must answer `applied` for every op; a batch
 * pushed again because its earlier push got no answer (or a 503) must answer all `applied` (that
 * push never committed) or all `duplicate` of applied (it had): one transaction per batch (PU5),
 * and a replay changes nothing (PU6).
 */
export class Ledger {
  /** Per op id, the statuses its answers carried. */
  readonly answers = new Map<string, string[]>();
  /** Batches pushed again after an unanswered push, by what the push that got an answer said. */
  readonly repushed = { duplicate: 0, applied: 0 };
  readonly problems: string[] = [];

  record(device: Device, batch: number, answer: Answer, again: boolean): void {
    const ops = device.batches[batch]!;
    const results = (JSON.parse(answer.body) as { results: OpResult[] }).results;
    if (results.length !== ops.length || results.some((r, i) => r.id !== ops[i]!.id)) {
      this.problems.push(`${device.name} batch ${batch}: ${results.length} results for ${ops.length} ops, or out of order`);
      return;
    }
    for (const r of results) this.answers.set(r.id, [...(this.answers.get(r.id) ?? []), r.status === "duplicate" ? `duplicate of ${r.was}` : r.status]);
    const kinds = new Set(results.map((r) => (r.status === "duplicate" ? `duplicate of ${r.was}` : r.status)));
    const kind = [...kinds].join(" + ");
    if (!again) {
      if (kind !== "applied") this.problems.push(`${device.name} batch ${batch}: first push answered ${kind}`);
    } else if (kind === "applied") this.repushed.applied++;
    else if (kind === "duplicate of applied") this.repushed.duplicate++;
    else this.problems.push(`${device.name} batch ${batch}: pushed again, answered ${kind}`);
  }

  /** Ops told `applied` more than once, and ops never told `applied` or `duplicate of applied`. */
  summary(devices: Device[]): { ops: number; toldTwice: number; untold: number } {
    let ops = 0;
    let toldTwice = 0;
    let untold = 0;
    for (const op of devices.flatMap((d) => d.batches.flat())) {
      ops++;
      const told = this.answers.get(op.id) ?? [];
      if (told.filter((s) => s === "applied").length > 1) toldTwice++;
      if (!told.length) untold++;
    }
    return { ops, toldTwice, untold };
  }
}

/** A query on the server's database (as a superuser, so row-level security does not hide rows). */
export type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

export interface Landed {
  /** Op effects missing: things never created, updates not applied, ops with no sync_ops record. */
  lost: number;
  /** Op effects applied more than once: rowVersions and history entries above one per op. */
  doubled: number;
  /** What differs, for the failure message. */
  details: string[];
}

/**
 * Reads what the devices' ops did to the database: each thing has rowVersion 1 + its updates, as
 * many history entries, the last update's description; each op has one sync_ops record, applied;
 * nothing was dropped into the inbox.
 */
export async function landed(query: Query, devices: Device[]): Promise<Landed> {
  const out: Landed = { lost: 0, doubled: 0, details: [] };
  for (const d of devices) {
    const rows = await query(
      `SELECT t.id, t.row_version, t.description,
              (SELECT count(*)::int FROM history_entries h WHERE h.entity_type = 'thing' AND h.entity_id = t.id) AS history
         FROM things t WHERE t.location_id = $1`,
      [d.locationId],
    );
    const found = new Map(rows.map((r) => [r.id as string, r]));
    for (const [id, e] of d.expected) {
      const row = found.get(id);
      const versions = 1 + e.updates;
      if (!row) {
        out.lost += versions;
        out.details.push(`${d.name}: thing ${id} is missing`);
        continue;
      }
      const rowVersion = Number(row.row_version);
      const history = Number(row.history);
      if (rowVersion < versions) out.lost += versions - rowVersion;
      if (rowVersion > versions) out.doubled += rowVersion - versions;
      if (history > versions) out.doubled += history - versions;
      if (rowVersion !== versions || history !== versions || row.description !== e.description)
        out.details.push(
          `${d.name}: thing ${id} rowVersion ${rowVersion}, ${history} history entries, description ${String(row.description)}; expected ${versions}, ${versions}, ${e.description}`,
        );
    }
    const extra = rows.filter((r) => !d.expected.has(r.id as string)).length;
    if (extra) {
      out.doubled += extra;
      out.details.push(`${d.name}: ${extra} things no op created`);
    }
    const ops = d.batches.flat().length;
    const [records] = await query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE result->>'status' = 'applied')::int AS applied FROM sync_ops WHERE user_id = $1 AND client_id = $2`,
      [d.userId, d.clientId],
    );
    if (Number(records!.n) < ops) out.lost += ops - Number(records!.n);
    if (Number(records!.n) !== ops || Number(records!.applied) !== ops)
      out.details.push(`${d.name}: ${String(records!.n)} sync_ops records (${String(records!.applied)} applied) for ${ops} ops`);
    const [drops] = await query(`SELECT count(*)::int AS n FROM inbox_items WHERE kind = 'sync_drop' AND created_by = $1`, [d.userId]);
    if (Number(drops!.n)) out.details.push(`${d.name}: ${String(drops!.n)} ops were dropped`);
  }
  return out;
}

/** Follows the things shape to up-to-date; returns the path of the live request that waits for its next change (SH6). */
export async function liveThingsPath(origin: string, opts: Pick<SendOptions, "cookie" | "address">): Promise<string> {
  let page = await send(origin, "GET", "/api/v1/sync/shape/things?offset=-1", opts);
  for (let i = 0; page.headers["electric-up-to-date"] === undefined; i++) {
    if (page.status !== 200 || i > 20) throw new Error(`shape: ${page.status} ${page.body.slice(0, 200)}`);
    page = await send(
      origin,
      "GET",
      `/api/v1/sync/shape/things?offset=${String(page.headers["electric-offset"])}&handle=${String(page.headers["electric-handle"])}`,
      opts,
    );
  }
  return `/api/v1/sync/shape/things?live=true&offset=${String(page.headers["electric-offset"])}&handle=${String(page.headers["electric-handle"])}`;
}

/** A seeded generator (mulberry32), so a run's random choices can be told apart and repeated. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
