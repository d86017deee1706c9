/**
 * Paged snapshots (sync/SPEC.md SH9) through the real @electric-sql/client: a things shape larger
 * than one page arrives complete, writes made while it is being paged are not lost, and a stream
 * resumed from a page offset finishes the snapshot.
 */
import { Shape, ShapeStream, type Row, type ShapeStreamInterface } from "@electric-sql/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { rows, sql } from "../../server/db/client.js";
import { typeFields } from "../../server/db/schema/index.js";
import { FIRST_PAGE_ROWS, PAGE_ROWS } from "../../server/sync/shapes/query.js";
import { startService, type TestService } from "../support/app.js";
import { locationWithRoles, type Client } from "../support/members.js";
import { op, push } from "../support/push.js";

let svc: TestService;
let loc: string;
let as: Awaited<ReturnType<typeof locationWithRoles>>["as"];
/** First page, one full later page, and a short last one. */
const SEEDED = FIRST_PAGE_ROWS + PAGE_ROWS + 500;
const PRICE = { amount: "12.50", currency: "EUR" };

beforeAll(async () => {
  svc = await startService();
  ({ locationId: loc, as } = await locationWithRoles(svc));
  const db = svc.database.db;
  await db.execute(sql`
    INSERT INTO things (id, location_id, place_id, type_id, name, fields)
    SELECT gen_random_uuid(), ${loc},
           (SELECT id FROM places WHERE location_id = ${loc} AND is_unplaced),
           (SELECT id FROM types WHERE account_id = (SELECT account_id FROM locations WHERE id = ${loc}) AND builtin_key = 'thing'),
           'Thing ' || g, jsonb_build_object('price', ${JSON.stringify(PRICE)}::jsonb)
    FROM generate_series(1, ${SEEDED}) g`);
  // A money field: viewers of this location may not see it (SH2), on any page.
  const [type] = await rows<{ id: string }>(
    db,
    sql`SELECT id FROM types WHERE account_id = (SELECT account_id FROM locations WHERE id = ${loc}) AND builtin_key = 'thing'`,
  );
  await db.insert(typeFields).values({
    id: uuidv7(),
    accountId: sql`(SELECT account_id FROM locations WHERE id = ${loc})`,
    typeId: type!.id,
    key: "price",
    kind: "money",
    label: "Price",
  });
}, 120_000);
afterAll(async () => svc?.close());

const shapeOf = (s: ShapeStream<Row>) => new Shape(s as unknown as ShapeStreamInterface<Row>);
const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

interface Seen {
  offset: string;
  status: number;
  next: string | null;
  upToDate: boolean;
  messages: { key?: string; value?: Row }[];
}

/**
 * A fetch for the client that records every request and its answer (prefetched pages included), and can run
 * `beforePage` once, just before the first request for a page after the first.
 */
function recorder(beforePage?: () => Promise<void>) {
  const seen: Seen[] = [];
  let ranBefore = false;
  const fetchClient = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const offset = url.searchParams.get("offset") ?? "";
    if (beforePage && !ranBefore && /^\d+_[1-9]\d*$/.test(offset)) {
      ranBefore = true;
      await beforePage();
    }
    // In request order: prefetched pages may finish out of order.
    const entry: Seen = { offset, status: 0, next: null, upToDate: false, messages: [] };
    seen.push(entry);
    const res = await fetch(input, init);
    Object.assign(entry, { status: res.status, next: res.headers.get("electric-offset"), upToDate: res.headers.has("electric-up-to-date") });
    if (res.ok) entry.messages = (await res.clone().json()) as Seen["messages"];
    return res;
  };
  return { seen, fetchClient, ran: () => ranBefore };
}

function stream(c: Client, fetchClient: typeof fetch, position?: { offset: string; handle: string }) {
  return new ShapeStream<Row>({
    url: `${svc.url}/api/v1/sync/shape/things`,
    headers: { cookie: cookieOf(c) },
    fetchClient,
    ...(position ? { offset: position.offset as `${number}_${number}`, handle: position.handle } : {}),
  });
}

/** The location's things as the database holds them now: id -> name. */
async function current(): Promise<Map<string, string>> {
  const found = await rows<{ id: string; name: string }>(
    svc.database.db,
    sql`SELECT id::text, name FROM things WHERE location_id = ${loc} AND deleted_at IS NULL`,
  );
  return new Map(found.map((r) => [r.id, r.name]));
}

const namesOf = (shapeRows: Row[]) => new Map(shapeRows.filter((r) => r.location_id === loc).map((r) => [r.id as string, r.name as string]));
const changes = (s: Seen) => s.messages.filter((m) => m.key);

describe("SH9 paged snapshots through the real Electric client", () => {
  test("SH9 a snapshot larger than one page arrives in pages, complete, and up to date only after the last", async () => {
    const expected = await current();
    expect(expected.size).toBeGreaterThan(FIRST_PAGE_ROWS + PAGE_ROWS);
    const { seen, fetchClient } = recorder();
    const s = stream(as.viewer, fetchClient);
    const got = namesOf(await shapeOf(s).rows);
    s.unsubscribeAll();
    expect(got).toEqual(expected);

    const pages = seen.filter((r) => r.offset === "-1" || /^\d+_[1-9]\d*$/.test(r.offset));
    const [first, second, last] = pages;
    expect(pages).toHaveLength(3);
    expect(changes(first!)).toHaveLength(FIRST_PAGE_ROWS);
    expect(changes(second!)).toHaveLength(PAGE_ROWS);
    expect(changes(last!)).toHaveLength(expected.size - FIRST_PAGE_ROWS - PAGE_ROWS);
    // One head for the whole snapshot, page offsets growing, the last one handing over to the log.
    const head = first!.next!.split("_")[0];
    expect(first!.next).toMatch(new RegExp(`^${head}_[1-9]\\d*$`));
    expect(BigInt(second!.next!.split("_")[1]!)).toBeGreaterThan(BigInt(first!.next!.split("_")[1]!));
    expect(last!.next).toBe(`${head}_inf`);
    expect(pages.every((p) => !p.upToDate && p.status === 200)).toBe(true);
    const ids = pages.flatMap((p) => changes(p).map((m) => m.value!.id as string));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // After the pages: the log from the snapshot's head, which ends up to date.
    const after = seen.slice(seen.indexOf(last!) + 1);
    expect(after[0]?.offset).toBe(`${head}_inf`);
    expect(after.some((r) => r.upToDate)).toBe(true);
  });

  test("SH2 SH9 money fields stay hidden from a viewer on every page", async () => {
    const { seen, fetchClient } = recorder();
    const s = stream(as.viewer, fetchClient);
    const viewerRows = (await shapeOf(s).rows).filter((r) => r.location_id === loc);
    s.unsubscribeAll();
    expect(seen.filter((r) => changes(r).length).length).toBeGreaterThanOrEqual(3);
    expect(viewerRows.length).toBeGreaterThan(FIRST_PAGE_ROWS + PAGE_ROWS);
    expect(viewerRows.every((r) => JSON.stringify(r.fields) === "{}")).toBe(true);
    const member = stream(as.member, recorder().fetchClient);
    const memberRows = (await shapeOf(member).rows).filter((r) => r.location_id === loc && typeof r.name === "string" && r.name.startsWith("Thing "));
    member.unsubscribeAll();
    expect(memberRows.length).toBeGreaterThan(FIRST_PAGE_ROWS + PAGE_ROWS);
    expect(memberRows.every((r) => JSON.stringify(r.fields) === JSON.stringify({ price: PRICE }))).toBe(true);
  });

  test("SH9 writes made between pages are not lost: the log from the snapshot's head replays them", async () => {
    const before = await rows<{ id: string; row_version: number }>(
      svc.database.db,
      sql`SELECT id::text, row_version FROM things WHERE location_id = ${loc} AND deleted_at IS NULL ORDER BY id`,
    );
    const [renamed, deleted] = before;
    const [laterDeleted, laterRenamed] = [...before].reverse();
    // Below every id the first page holds, so no later page can carry it: only the log can.
    const early = "00000000-0000-7000-8000-00000000000a";
    const { seen, fetchClient, ran } = recorder(async () => {
      const res = await push(as.member, [
        op({ name: "thing.create", locationId: loc, args: { id: early, name: "Aardvark" } }),
        op({ name: "thing.update", locationId: loc, args: { id: renamed!.id, patch: { name: "Renamed while paging" } }, baseVersion: renamed!.row_version }),
        op({ name: "thing.delete", locationId: loc, args: { id: deleted!.id }, baseVersion: deleted!.row_version }),
        op({
          name: "thing.update",
          locationId: loc,
          args: { id: laterRenamed!.id, patch: { name: "Renamed before its page" } },
          baseVersion: laterRenamed!.row_version,
        }),
        op({ name: "thing.delete", locationId: loc, args: { id: laterDeleted!.id }, baseVersion: laterDeleted!.row_version }),
      ]);
      expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied", "applied", "applied", "applied"]);
    });
    const s = stream(as.member, fetchClient);
    const got = namesOf(await shapeOf(s).rows);
    s.unsubscribeAll();
    expect(ran()).toBe(true);

    // The first page was read before the writes: it had the old name and the deleted row.
    const firstPage = changes(seen[0]!).map((m) => m.value!);
    expect(firstPage.find((r) => r.id === renamed!.id)?.name).not.toBe("Renamed while paging");
    expect(firstPage.some((r) => r.id === deleted!.id)).toBe(true);
    expect(seen.slice(1).some((r) => changes(r).some((m) => m.value!.id === early))).toBe(true);

    expect(got.get(early)).toBe("Aardvark");
    expect(got.get(renamed!.id)).toBe("Renamed while paging");
    expect(got.has(deleted!.id)).toBe(false);
    expect(got.get(laterRenamed!.id)).toBe("Renamed before its page");
    expect(got.has(laterDeleted!.id)).toBe(false);
    expect(got).toEqual(await current());
  });

  test("SH9 a stream resumed from a stored page offset finishes the snapshot without repeating the first page", async () => {
    const first = await as.viewer.get(`/api/v1/sync/shape/things?offset=-1`);
    expect(first.status).toBe(200);
    expect(first.headers.has("electric-up-to-date")).toBe(false);
    const firstIds = (first.body as { value: Row }[]).map((m) => m.value.id as string);
    const position = { offset: first.headers.get("electric-offset")!, handle: first.headers.get("electric-handle")! };
    expect(position.offset).toMatch(/^\d+_[1-9]\d*$/);

    const { seen, fetchClient } = recorder();
    const s = stream(as.viewer, fetchClient, position);
    const rest: string[] = [];
    await new Promise<void>((resolve) => {
      s.subscribe((messages) => {
        for (const m of messages) if ("value" in m) rest.push(m.value.id as string);
        if (messages.some((m) => "headers" in m && (m.headers as { control?: string }).control === "up-to-date")) resolve();
      });
    });
    s.unsubscribeAll();
    expect(seen[0]?.offset).toBe(position.offset);
    expect(rest.filter((id) => firstIds.includes(id))).toEqual([]);
    expect(new Set([...firstIds, ...rest])).toEqual(new Set((await current()).keys()));
  });

  test("SH7 SH9 a page request is checked like any other: stale handle 409, a head past the log or a foreign offset 400", async () => {
    const first = await as.viewer.get(`/api/v1/sync/shape/things?offset=-1`);
    const next = first.headers.get("electric-offset")!;
    const handle = first.headers.get("electric-handle")!;
    const stale = await as.viewer.get(`/api/v1/sync/shape/things?offset=${next}&handle=not-${handle}`);
    expect(stale.status).toBe(409);
    expect(stale.headers.get("electric-handle")).toBe(handle);
    expect(stale.body).toEqual([{ headers: { control: "must-refetch" } }]);
    const [head, key] = next.split("_");
    const future = await as.viewer.get(`/api/v1/sync/shape/things?offset=${Number(head) + 1_000_000}_${key}&handle=${handle}`);
    expect(future.status).toBe(400);
    const tooBig = await as.viewer.get(`/api/v1/sync/shape/things?offset=${head}_${(1n << 128n) + 1n}&handle=${handle}`);
    expect(tooBig.status).toBe(400);
    // The same page again answers the same rows: pages are read from the offset alone.
    const again = await as.viewer.get(`/api/v1/sync/shape/things?offset=${next}&handle=${handle}`);
    const twice = await as.viewer.get(`/api/v1/sync/shape/things?offset=${next}&handle=${handle}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(twice.body);
    expect(again.headers.get("electric-offset")).toBe(twice.headers.get("electric-offset"));
  });
});
