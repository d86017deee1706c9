/**
 * Short codes: GET /codes/{code}, claiming a printed label (op code.claim and POST
 * /codes/{code}/claim), and two claims of one label made offline: one holds it, the other waits in
 * the inbox as a label_claim item, whose accept moves the label.
 */
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { formatCode } from "../../../shared/codes.js";
import { places } from "../../../server/db/schema/index.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

const make = async (c: Client, loc: string, body: Record<string, unknown>) => {
  const res = await c.post(`/api/v1/locations/${loc}/things`, body);
  expect(res.status).toBe(201);
  return res.body as { id: string; shortCode: string };
};
const thing = async (c: Client, id: string) => (await c.get(`/api/v1/things/${id}`)).body;
/** A fresh sheet of free codes (the owner prints it). */
const sheet = async (as: Record<string, Client>, loc: string, count = 3): Promise<string[]> => {
  const res = await as.owner!.post(`/api/v1/locations/${loc}/label-sheets`, { count });
  expect(res.status).toBe(201);
  return res.body.codes;
};
const claimOp = (loc: string, code: string, id: string, kind = "thing") => op({ name: "code.claim", locationId: loc, args: { code, kind, id } });

describe("codes", () => {
  test("GET /codes/{code}: a thing's and a place's code, however it is typed; unknown, free and invisible codes answer alike", async ({ svc, loc, as }) => {
    const t = await make(as.member, loc, { name: "Drill" });
    expect((await as.viewer.get(`/api/v1/codes/${t.shortCode}`)).body).toEqual({ kind: "thing", id: t.id });
    const lower = formatCode(t.shortCode).toLowerCase();
    expect((await as.viewer.get(`/api/v1/codes/${lower}`)).body).toEqual({ kind: "thing", id: t.id });
    expect((await as.viewer.get(`/api/v1/codes/${encodeURIComponent(` ${t.shortCode.slice(0, 3)} ${t.shortCode.slice(3)} `)}`)).body).toEqual({
      kind: "thing",
      id: t.id,
    });
    const place = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Attic" });
    const [p] = await svc.database.db.select({ code: places.shortCode }).from(places).where(eq(places.id, place.body.id));
    expect((await as.member.get(`/api/v1/codes/${p!.code}`)).body).toEqual({ kind: "place", id: place.body.id });
    const [free] = await sheet(as, loc, 1);
    const unknown = "ZZZZZZ" === t.shortCode ? "YYYYYY" : "ZZZZZZ";
    const answers = await Promise.all([
      as.outsider.get(`/api/v1/codes/${t.shortCode}`),
      as.member.get(`/api/v1/codes/${unknown}`),
      as.member.get(`/api/v1/codes/${free}`),
      as.member.get(`/api/v1/codes/not-a-code`),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a.body).toEqual(answers[0].body);
    }
  });

  test("claiming a free label: it becomes the box's code, the box's old code still opens it, again changes nothing", async ({ loc, as }) => {
    const box = await make(as.member, loc, { name: "Box 12", isContainer: true });
    const [code] = await sheet(as, loc);
    const res = await push(as.member, [claimOp(loc, formatCode(code!).toLowerCase(), box.id)]);
    expect(res.body.results[0].status).toBe("applied");
    const after = await thing(as.member, box.id);
    expect(after).toMatchObject({ shortCode: code, rowVersion: 2 });
    expect((await as.member.get(`/api/v1/codes/${code}`)).body).toEqual({ kind: "thing", id: box.id });
    expect((await as.member.get(`/api/v1/codes/${box.shortCode}`)).body).toEqual({ kind: "thing", id: box.id });
    const history = (await as.member.get(`/api/v1/things/${box.id}/history`)).body.items;
    expect(history[0]).toMatchObject({ action: "code.claimed" });
    const again = await as.member.post(`/api/v1/codes/${code}/claim`, { kind: "thing", id: box.id });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ code, kind: "thing", id: box.id, outcome: "claimed", inboxItemId: null });
    expect((await thing(as.member, box.id)).rowVersion).toBe(2);
  });

  test("two members claim one label offline for different boxes: one holds it, the other is a label_claim item; accept moves it", async ({ loc, as }) => {
    const first = await make(as.member, loc, { name: "Blue box", isContainer: true });
    const second = await make(as.admin, loc, { name: "Red box", isContainer: true });
    const [code] = await sheet(as, loc);
    const a = await push(as.member, [claimOp(loc, code!, first.id)], "phone-a");
    const b = await push(as.admin, [claimOp(loc, code!, second.id)], "phone-b");
    // Both applied: a collision is never a dropped op.
    expect([a.body.results[0].status, b.body.results[0].status]).toEqual(["applied", "applied"]);
    expect((await as.member.get(`/api/v1/codes/${code}`)).body.id).toBe(first.id);
    const inbox = (await as.member.get(`/api/v1/inbox?locationId=${loc}&kind=label_claim`)).body.items;
    const item = inbox.find((i: { claim?: { claimedFor: { id: string } } }) => i.claim?.claimedFor.id === second.id);
    expect(item).toMatchObject({
      kind: "label_claim",
      claim: { code, claimedFor: { kind: "thing", id: second.id, name: "Red box" }, heldBy: { kind: "thing", id: first.id, name: "Blue box" } },
    });
    expect((await thing(as.member, second.id)).shortCode).toBe(second.shortCode);
    const accepted = await as.member.post(`/api/v1/inbox/${item.id}/accept`);
    expect(accepted.status).toBe(200);
    expect((await as.member.get(`/api/v1/codes/${code}`)).body).toEqual({ kind: "thing", id: second.id });
    expect((await thing(as.member, second.id)).shortCode).toBe(code);
    // The first box goes back to its own code, which never stopped answering for it.
    expect((await thing(as.member, first.id)).shortCode).toBe(first.shortCode);
    expect((await as.member.get(`/api/v1/codes/${first.shortCode}`)).body.id).toBe(first.id);
  });

  test("a dismissed label_claim leaves the label where it is; the REST claim answers inbox", async ({ loc, as }) => {
    const first = await make(as.member, loc, { name: "Tin A", isContainer: true });
    const second = await make(as.member, loc, { name: "Tin B", isContainer: true });
    const [code] = await sheet(as, loc);
    expect((await as.member.post(`/api/v1/codes/${code}/claim`, { kind: "thing", id: first.id })).body.outcome).toBe("claimed");
    const res = await as.member.post(`/api/v1/codes/${code}/claim`, { kind: "thing", id: second.id });
    expect(res.body).toMatchObject({ outcome: "inbox", code });
    expect((await as.member.post(`/api/v1/inbox/${res.body.inboxItemId}/dismiss`)).status).toBe(200);
    expect((await as.member.get(`/api/v1/codes/${code}`)).body.id).toBe(first.id);
    expect((await thing(as.member, second.id)).shortCode).toBe(second.shortCode);
  });

  test("claims refused: a malformed code, a code of another location, a target elsewhere, a viewer", async ({ loc, as }) => {
    const box = await make(as.member, loc, { name: "Box", isContainer: true });
    const [code] = await sheet(as, loc);
    expect((await as.member.post(`/api/v1/codes/OOOOOO/claim`, { kind: "thing", id: box.id })).status).toBe(400);
    const pushed = await push(as.member, [claimOp(loc, "0000-11", box.id)]);
    expect(pushed.body.results[0]).toMatchObject({ status: "dropped", reason: "invalid" });
    const otherLoc = (await as.outsider.get("/api/v1/me")).body.locations[0].id;
    const theirs = await make(as.outsider, otherLoc, { name: "Theirs" });
    expect((await as.member.post(`/api/v1/codes/${theirs.shortCode}/claim`, { kind: "thing", id: box.id })).status).toBe(404);
    expect((await as.outsider.post(`/api/v1/codes/${code}/claim`, { kind: "thing", id: theirs.id })).status).toBe(404);
    expect((await as.member.post(`/api/v1/codes/${code}/claim`, { kind: "thing", id: theirs.id })).status).toBe(404);
    expect((await as.member.post(`/api/v1/codes/${code}/claim`, { kind: "place", id: box.id })).status).toBe(404);
    expect((await as.viewer.post(`/api/v1/codes/${code}/claim`, { kind: "thing", id: box.id })).status).toBe(403);
    expect((await as.member.get(`/api/v1/codes/${code}`)).status).toBe(404);
  });

  test("a personal token looks codes up and resolves scans, and cannot claim", async ({ svc, loc, as }) => {
    const t = await make(as.member, loc, { name: "Meter cupboard" });
    const made = await as.member.post("/api/v1/tokens", { name: "Desk scanner", scope: "read", locationIds: [loc] });
    expect(made.status).toBe(201);
    const c = svc.client();
    const auth = { authorization: `Bearer ${made.body.secret}` };
    expect((await c.request("GET", `/api/v1/codes/${t.shortCode}`, undefined, auth)).body).toEqual({ kind: "thing", id: t.id });
    expect((await c.request("POST", "/api/v1/scan/resolve", { text: t.shortCode }, auth)).body.outcome).toBe("open");
    const [code] = await sheet(as, loc);
    // A member's read-only token is not offered the free label its person could claim.
    expect((await c.request("POST", "/api/v1/scan/resolve", { text: code }, auth)).body).toEqual({ outcome: "not_found" });
    expect((await c.request("POST", `/api/v1/codes/${code}/claim`, { kind: "thing", id: t.id }, auth)).status).toBe(403);
  });

  test("a place claims a label too", async ({ svc, loc, as }) => {
    const place = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Garage" });
    const [code] = await sheet(as, loc);
    expect((await as.member.post(`/api/v1/codes/${code}/claim`, { kind: "place", id: place.body.id })).body.outcome).toBe("claimed");
    const [p] = await svc.database.db.select({ code: places.shortCode }).from(places).where(eq(places.id, place.body.id));
    expect(p!.code).toBe(code);
    expect((await as.member.get(`/api/v1/codes/${code}`)).body).toEqual({ kind: "place", id: place.body.id });
  });
});
