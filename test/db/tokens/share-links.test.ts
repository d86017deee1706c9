/**
 * Share links (spec "Share-link preview", GET /api/v1/share-links/{id}/preview): members make them,
 * anyone holding the token reads the preview signed out, and nothing beyond the spec's fields
 * leaves. Revoked, expired and wrong-token links answer exactly like unknown ones.
 */
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { shareLinkPreviewSchema } from "../../../shared/share-links.js";
import { rows } from "../../../server/db/client.js";
import { apiTest as test } from "../../support/fixtures.js";
import { PNG } from "../../support/hostile.js";
import type { Client } from "../../support/members.js";
import { expectMalformedCursorsRefused, walkPages } from "../../support/paging.js";
import type { TestService } from "../../support/app.js";

const THING_KEYS = ["condition", "description", "name", "path", "photo", "quantity", "type"];
/** The spec types these as a value (never null), so a thing without one leaves the key out (convention 3). */
const LEFT_OUT_WHEN_EMPTY = ["condition", "photo"];
const PATH_KEYS = ["isUnplaced", "kind", "name"];
const TYPE_KEYS = ["builtinKey", "icon", "name"];
const PHOTO_KEYS = ["thumbUrl", "url"];
const TOP_KEYS = ["cap", "expiresAt", "items", "nextPage", "page", "scope", "title", "total"];

const make = async (c: Client, loc: string, body: Record<string, unknown>) => {
  const res = await c.post(`/api/v1/locations/${loc}/things`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
const place = async (c: Client, loc: string, body: Record<string, unknown>) => {
  const res = await c.post(`/api/v1/locations/${loc}/places`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
const share = async (c: Client, body: Record<string, unknown>) => {
  const res = await c.post("/api/v1/share-links", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const url = new URL(res.body.url as string);
  return { id: res.body.id as string, token: url.hash.slice(1), url };
};

/** A request with no cookie at all, as someone without an account sends it. */
const anon = (svc: TestService, path: string, headers: Record<string, string> = {}) => svc.client().request("GET", path, undefined, headers);
const preview = (svc: TestService, id: string, token: string, page?: number) =>
  anon(svc, `/api/v1/share-links/${id}/preview${page !== undefined ? `?page=${page}` : ""}`, { "x-share-token": token });

/** Every key of a thing as shared is one the spec lists; nested shapes too. */
function expectThingKeys(t: Record<string, any>) {
  expect(Object.keys(t).sort()).toEqual(THING_KEYS.filter((k) => k in t || !LEFT_OUT_WHEN_EMPTY.includes(k)));
  for (const k of LEFT_OUT_WHEN_EMPTY) expect(t[k], k).not.toBeNull();
  expect(Object.keys(t.type).sort()).toEqual(TYPE_KEYS);
  for (const p of t.path) expect(Object.keys(p).sort()).toEqual(PATH_KEYS);
  if (t.photo) expect(Object.keys(t.photo).sort()).toEqual(PHOTO_KEYS);
}

async function upload(svc: TestService, c: Client, loc: string, bytes: Buffer): Promise<string> {
  const id = uuidv7();
  const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(`${svc.url}/api/v1/files?locationId=${loc}&id=${id}`, {
    method: "POST",
    headers: { origin: svc.config.publicUrl.origin, cookie, "content-type": "application/octet-stream" },
    body: new Uint8Array(bytes),
  });
  expect(res.status).toBe(201);
  return id;
}

describe("share links", () => {
  test("members make links, every reader lists them without tokens, the maker or an admin revokes", async ({ svc, loc, as }) => {
    const thing = await make(as.member, loc, { name: "Drill" });
    expect((await as.viewer.post("/api/v1/share-links", { scope: "thing", targetId: thing })).status).toBe(403);
    expect((await as.outsider.post("/api/v1/share-links", { scope: "thing", targetId: thing })).status).toBe(404);
    expect((await svc.client().post("/api/v1/share-links", { scope: "thing", targetId: thing })).status).toBe(401);
    expect((await as.member.post("/api/v1/share-links", { scope: "place", targetId: thing })).status).toBe(404);
    expect((await as.member.post("/api/v1/share-links", { scope: "view" })).status).toBe(400);
    expect((await as.member.post("/api/v1/share-links", { scope: "thing", targetId: thing, expiresAt: "2000-01-01T00:00:00Z" })).status).toBe(400);
    expect((await as.member.post("/api/v1/share-links", { scope: "thing", targetId: thing, cap: 5001 })).status).toBe(400);

    const mine = await share(as.member, { scope: "thing", targetId: thing, title: "The drill" });
    expect(mine.url.pathname).toBe(`/s/${mine.id}`);
    expect(mine.token).toMatch(/^[0-9A-Za-z]{43}$/);
    const theirs = await share(as.admin, { scope: "view", locationId: loc, filter: { q: "drill" } });

    const list = await as.viewer.get(`/api/v1/locations/${loc}/share-links`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((l: { id: string }) => l.id)).toEqual([theirs.id, mine.id]);
    expect(JSON.stringify(list.body)).not.toContain(mine.token);
    expect(list.body.items[1]).toMatchObject({ scope: "thing", targetId: thing, title: "The drill", cap: 500, createdBy: { displayName: "Member Person" } });
    expect(list.body.items.every((l: { canRevoke: boolean }) => !l.canRevoke)).toBe(true);
    expect((await as.outsider.get(`/api/v1/locations/${loc}/share-links`)).status).toBe(404);

    // The database never holds the token itself.
    const [stored] = await rows<{ token_hash: string }>(svc.database.db, sql`SELECT token_hash FROM share_links WHERE id = ${mine.id}`);
    expect(stored!.token_hash).not.toContain(mine.token);

    expect((await as.member.delete(`/api/v1/share-links/${theirs.id}`)).status).toBe(403);
    expect((await as.viewer.delete(`/api/v1/share-links/${mine.id}`)).status).toBe(403);
    expect((await as.admin.delete(`/api/v1/share-links/${mine.id}`)).status).toBe(204);
    expect((await as.admin.delete(`/api/v1/share-links/${mine.id}`)).status).toBe(404);
    expect((await as.admin.delete(`/api/v1/share-links/${theirs.id}`)).status).toBe(204);
    expect((await as.viewer.get(`/api/v1/locations/${loc}/share-links`)).body.items).toEqual([]);
  });

  test("the list pages with limit and cursor, newest first; next_cursor is null on the last page", async ({ as }) => {
    const own = (await as.owner.post("/api/v1/locations", { name: "Links paged" })).body.id as string;
    const target = await make(as.owner, own, { name: "Ladder" });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await share(as.owner, { scope: "thing", targetId: target, title: `Link ${i}` })).id);
    const walked = await walkPages<{ id: string }>(as.owner, `/api/v1/locations/${own}/share-links`, 2);
    expect(walked.pages).toBe(3);
    expect(walked.items.map((l) => l.id)).toEqual([...made].reverse());
    expect((await as.owner.get(`/api/v1/locations/${own}/share-links`)).body.next_cursor).toBeNull();
    await expectMalformedCursorsRefused(as.owner, `/api/v1/locations/${own}/share-links`);
  });

  test("the preview signed out, for a thing, a place and a view, with exactly the spec's fields", async ({ svc, loc, as }) => {
    const shed = await place(as.member, loc, { name: "Shed" });
    const shelf = await place(as.member, loc, { name: "Shelf", parentId: shed });
    const crate = await make(as.member, loc, { name: "Crate", placeId: shelf, isContainer: true });
    const saw = await make(as.member, loc, { name: "Saw", containerId: crate, quantity: "2", condition: "good", description: "Sharp" });
    await make(as.member, loc, { name: "Hammer", placeId: shed });
    await make(as.member, loc, { name: "Kettle" });
    const ended = await make(as.member, loc, { name: "Old saw", placeId: shed });
    await svc.database.db.execute(sql`UPDATE things SET lifecycle = 'ended' WHERE id = ${ended}`);

    const t = await share(as.member, { scope: "thing", targetId: crate, title: "My crate" });
    const res = await preview(svc, t.id, t.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    shareLinkPreviewSchema.parse(res.body);
    expect(Object.keys(res.body).sort()).toEqual([...TOP_KEYS, "thing"].sort());
    expect(res.body).toMatchObject({ scope: "thing", title: "My crate", total: 1, cap: 500, page: 1, nextPage: null });
    expect(res.body.thing).toMatchObject({ name: "Crate", path: [{ name: "Shed", kind: "place", isUnplaced: false }, { name: "Shelf" }] });
    expect(res.body.thing).not.toHaveProperty("photo");
    expect(res.body.thing).not.toHaveProperty("condition");
    expect(res.body.items).toEqual([
      expect.objectContaining({
        name: "Saw",
        quantity: 2,
        condition: "good",
        description: "Sharp",
        path: expect.arrayContaining([{ name: "Crate", kind: "container", isUnplaced: false }]),
      }),
    ]);
    expect(res.body.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expectThingKeys(res.body.thing);
    for (const i of res.body.items) expectThingKeys(i);
    // Nothing that names the location, a member or an id leaves.
    const text = JSON.stringify(res.body);
    for (const leak of [loc, crate, saw, shed, as.member.userId, "Member Person"]) expect(text).not.toContain(leak);

    const p = await share(as.member, { scope: "place", targetId: shed });
    const pr = await preview(svc, p.id, p.token);
    expect(pr.status).toBe(200);
    expect(Object.keys(pr.body).sort()).toEqual([...TOP_KEYS, "place"].sort());
    expect(pr.body.place).toEqual({ name: "Shed", isUnplaced: false, path: [] });
    expect(pr.body.items.map((i: { name: string }) => i.name)).toEqual(["Crate", "Hammer", "Saw"]);
    for (const i of pr.body.items) expectThingKeys(i);

    const v = await share(as.member, { scope: "view", locationId: loc, filter: { q: "SAW" } });
    const vr = await preview(svc, v.id, v.token);
    expect(Object.keys(vr.body).sort()).toEqual(TOP_KEYS);
    expect(vr.body.items.map((i: { name: string }) => i.name)).toEqual(["Saw"]);
    const all = await share(as.member, { scope: "view", locationId: loc });
    const names = (await preview(svc, all.id, all.token)).body.items.map((i: { name: string }) => i.name);
    expect(names).toEqual(expect.arrayContaining(["Crate", "Hammer", "Kettle", "Saw"]));
    expect(names).not.toContain("Old saw");
    expect(names).toEqual([...names].sort());
    // The token in the query works as well as in the header.
    expect((await anon(svc, `/api/v1/share-links/${v.id}/preview?t=${v.token}`)).status).toBe(200);
  });

  test("paging: 50 a page, page 100 answers and 101 is refused; the cap bounds what is shown", async ({ svc, loc, as }) => {
    const bin = await place(as.member, loc, { name: "Bin" });
    for (let i = 0; i < 55; i++) await make(as.member, loc, { name: `Screw ${String(i).padStart(2, "0")}`, placeId: bin });
    const l = await share(as.member, { scope: "place", targetId: bin });
    const first = await preview(svc, l.id, l.token);
    expect(first.body).toMatchObject({ total: 55, page: 1, nextPage: 2 });
    expect(first.body.items).toHaveLength(50);
    const second = await preview(svc, l.id, l.token, 2);
    expect(second.body).toMatchObject({ total: 55, page: 2, nextPage: null });
    expect(second.body.items.map((i: { name: string }) => i.name)).toEqual(["Screw 50", "Screw 51", "Screw 52", "Screw 53", "Screw 54"]);
    const last = await preview(svc, l.id, l.token, 100);
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ page: 100, nextPage: null, items: [] });
    expect((await preview(svc, l.id, l.token, 101)).status).toBe(400);
    expect((await preview(svc, l.id, l.token, 0)).status).toBe(400);

    const capped = await share(as.member, { scope: "place", targetId: bin, cap: 3 });
    const c = await preview(svc, capped.id, capped.token);
    expect(c.body).toMatchObject({ total: 3, cap: 3, nextPage: null });
    expect(c.body.items.map((i: { name: string }) => i.name)).toEqual(["Screw 00", "Screw 01", "Screw 02"]);
  });

  test("revoked, expired and wrong-token links answer exactly like an unknown one; sessions and personal tokens add nothing", async ({ svc, loc, as }) => {
    const thing = await make(as.member, loc, { name: "Ladder" });
    const unknown = await preview(svc, uuidv7(), "A".repeat(43));
    expect(unknown.status).toBe(404);
    const same = (r: { status: number; body: unknown }) => {
      expect(r.status).toBe(unknown.status);
      expect(r.body).toEqual(unknown.body);
    };

    const l = await share(as.member, { scope: "thing", targetId: thing });
    expect((await preview(svc, l.id, l.token)).status).toBe(200);
    same(await preview(svc, l.id, l.token.slice(0, -1) + (l.token.endsWith("A") ? "B" : "A")));
    same(await preview(svc, l.id, ""));
    same(await anon(svc, `/api/v1/share-links/${l.id}/preview`));
    // A signed-in owner without the token is nobody here.
    same(await as.owner.get(`/api/v1/share-links/${l.id}/preview`));
    // A personal token never reaches the route, even with the link's token beside it.
    const pat = await as.owner.post("/api/v1/tokens", { name: "script", scope: "read", locationIds: [loc] });
    expect(pat.status).toBe(201);
    const refused = await anon(svc, `/api/v1/share-links/${l.id}/preview`, { "x-share-token": l.token, authorization: `Bearer ${pat.body.secret}` });
    expect(refused.status).toBe(403);

    const expired = await share(as.member, { scope: "thing", targetId: thing });
    await svc.database.db.execute(sql`UPDATE share_links SET expires_at = now() - interval '1 second' WHERE id = ${expired.id}`);
    same(await preview(svc, expired.id, expired.token));

    expect((await as.member.delete(`/api/v1/share-links/${l.id}`)).status).toBe(204);
    same(await preview(svc, l.id, l.token));

    // A trashed target ends the link too.
    const gone = await share(as.member, { scope: "thing", targetId: thing });
    expect((await as.member.delete(`/api/v1/things/${thing}`, { rowVersion: 1 })).status).toBeLessThan(300);
    same(await preview(svc, gone.id, gone.token));
  });

  test("a photo is reachable by the anonymous viewer only through the link, and only for things it shows", async ({ svc, loc, as }) => {
    const shown = await make(as.member, loc, { name: "Vase" });
    const hidden = await make(as.member, loc, { name: "Safe" });
    const photo = await upload(svc, as.member, loc, PNG);
    const other = await upload(svc, as.member, loc, Buffer.concat([PNG, Buffer.from("another")]));
    await svc.database.db.execute(sql`UPDATE things SET cover_file_id = ${photo} WHERE id = ${shown}`);
    await svc.database.db.execute(sql`UPDATE things SET cover_file_id = ${other} WHERE id = ${hidden}`);

    const l = await share(as.member, { scope: "thing", targetId: shown });
    const res = await preview(svc, l.id, l.token);
    expect(res.body.thing.photo).toEqual({
      url: `/api/v1/share-links/${l.id}/files/${photo}?t=${l.token}`,
      thumbUrl: `/api/v1/share-links/${l.id}/files/${photo}/thumb?t=${l.token}`,
    });
    const got = await fetch(svc.url + res.body.thing.photo.url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(svc.url + res.body.thing.photo.thumbUrl)).status).toBe(200);
    // Without the token, with a wrong one, or another thing's photo through this link: nothing.
    expect((await fetch(`${svc.url}/api/v1/share-links/${l.id}/files/${photo}`)).status).toBe(404);
    expect((await fetch(`${svc.url}/api/v1/share-links/${l.id}/files/${photo}?t=${"A".repeat(43)}`)).status).toBe(404);
    expect((await fetch(`${svc.url}/api/v1/share-links/${l.id}/files/${other}?t=${l.token}`)).status).toBe(404);
    expect((await fetch(`${svc.url}/api/v1/files/${photo}`)).status).toBe(401);
    // A personal token is refused here too, even beside the link's token.
    const pat = await as.member.post("/api/v1/tokens", { name: "photos", scope: "read", locationIds: [loc] });
    expect(pat.status).toBe(201);
    expect((await fetch(svc.url + res.body.thing.photo.url, { headers: { authorization: `Bearer ${pat.body.secret}` } })).status).toBe(403);
    expect((await as.member.delete(`/api/v1/share-links/${l.id}`)).status).toBe(204);
    expect((await fetch(svc.url + res.body.thing.photo.url)).status).toBe(404);
  });

  test("a thing without condition or photo leaves both keys out; with them, one of five values and {thumbUrl, url}", async ({ svc, loc, as }) => {
    const shed = await place(as.member, loc, { name: "Potting shed" });
    const bare = await make(as.member, loc, { name: "Rake", placeId: shed });
    const full = await make(as.member, loc, { name: "Spade", placeId: shed, condition: "fair" });
    await svc.database.db.execute(sql`UPDATE things SET cover_file_id = ${await upload(svc, as.member, loc, PNG)} WHERE id = ${full}`);
    const bareLink = await share(as.member, { scope: "thing", targetId: bare });
    const one = (await preview(svc, bareLink.id, bareLink.token)).body;
    expect(one.thing).not.toHaveProperty("condition");
    expect(one.thing).not.toHaveProperty("photo");
    shareLinkPreviewSchema.parse(one);
    const inShed = await share(as.member, { scope: "place", targetId: shed });
    const res = await preview(svc, inShed.id, inShed.token);
    expect(res.status).toBe(200);
    shareLinkPreviewSchema.parse(res.body);
    const byName = new Map(res.body.items.map((i: { name: string }) => [i.name, i]));
    expect(Object.keys(byName.get("Rake") as object)).not.toContain("condition");
    expect(Object.keys(byName.get("Rake") as object)).not.toContain("photo");
    expect(byName.get("Spade")).toMatchObject({ condition: "fair", photo: { url: expect.any(String), thumbUrl: expect.any(String) } });
    // No null anywhere the spec does not allow one: only these may be null.
    const nullable = new Set(["title", "nextPage", "name", "description", "icon", "builtinKey", "thumbUrl"]);
    const nulls: string[] = [];
    const walk = (v: unknown, key: string) => {
      if (v === null) nulls.push(key);
      else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
      else if (typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
    };
    walk(res.body, "");
    walk(one, "");
    expect(nulls.filter((k) => !nullable.has(k))).toEqual([]);
  });

  test("an address reads at most 120 previews a minute; the next is 429 with Retry-After, another address is unaffected", async ({ svc, loc, as }) => {
    const thing = await make(as.member, loc, { name: "Kayak" });
    const l = await share(as.member, { scope: "thing", targetId: thing });
    const one = svc.client();
    const get = (c: typeof one) => c.request("GET", `/api/v1/share-links/${l.id}/preview`, undefined, { "x-share-token": l.token });
    for (let i = 0; i < 120; i++) expect((await get(one)).status).toBe(200);
    const over = await get(one);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await get(svc.client())).status).toBe(200);
  });
});
