/**
 * System commands (CommandDef.system): the writes no request's op may run. A location deleted,
 * restored or transferred and a member joining (by invite, or as a managed account) go through
 * them and leave history in words, naming the person who acted; the AI's reading of a thing bumps
 * no version (CommandDef.bumpsVersion) and names no one.
 */
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { historyAr, historyEn } from "../../../client/ui/i18n/history.js";
import { SYSTEM_ACTOR } from "../../../server/commands/executor.js";
import { asSystem, withActor } from "../../../server/db/actor.js";
import { rows, sql } from "../../../server/db/client.js";
import { UnknownCommandError } from "../../../server/errors/classes.js";
import { summaryText } from "../../../server/modules/history/read.js";
import { commandRegistry, executeSystem, runOne, runSystem } from "../../../server/modules/registry.js";
import { userActor } from "../../../server/db/actor.js";
import { apiTest as test } from "../../support/fixtures.js";
import { op, push } from "../../support/push.js";

interface Entry {
  action: string;
  actor_type: string;
  actor_user_id: string | null;
  entity_name: string | null;
  summary_key: string;
  summary_params: Record<string, string>;
}

const SYSTEM_NAMES = [...commandRegistry().values()].filter((d) => d.system).map((d) => d.name);

describe("no request runs a system command", () => {
  test("the registry holds them: location, member, AI and job writes", () => {
    expect(SYSTEM_NAMES.sort()).toEqual(
      ["inbox.raise", "loan.overdue_noted", "location.delete", "location.restore", "location.transfer", "member.join", "meter.nudge", "thing.extract"].sort(),
    );
  });

  test("pushed, each is dropped as an unknown op and nothing changes", async ({ svc, as, loc }) => {
    const res = await push(
      as.owner,
      SYSTEM_NAMES.map((name) => op({ name, locationId: loc, args: { id: loc, userId: as.member.userId, role: "owner" } })),
    );
    expect(res.status).toBe(200);
    for (const r of res.body.results as { status: string; reason?: string }[]) expect(r).toMatchObject({ status: "dropped", reason: "unknown_op" });
    const [live] = await rows<{ deleted: boolean }>(svc.database.db, sql`SELECT deleted_at IS NOT NULL AS deleted FROM locations WHERE id = ${loc}`);
    expect(live?.deleted).toBe(false);
  });

  test("a service's write (REST, MCP) refuses them as unknown; the system path refuses a person's command", async ({ svc, as, loc }) => {
    const owner = userActor({ id: as.owner.userId, name: "Owner" }, { mfaProven: true });
    await expect(
      withActor(svc.database.db, owner, (tx) => runOne(tx, owner, { name: "location.delete", locationId: loc, args: { id: loc } }, { undoWindowMs: 0 })),
    ).rejects.toBeInstanceOf(UnknownCommandError);
    const [verdict] = await asSystem(svc.database.db, (tx) =>
      executeSystem(tx, SYSTEM_ACTOR, [{ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Sneaked in" } }], { undoWindowMs: 0 }),
    );
    expect(verdict).toMatchObject({ status: "rejected", error: expect.any(UnknownCommandError) });
  });
});

async function entries(svc: { database: { db: Parameters<typeof rows>[0] } }, locationId: string, action: string): Promise<Entry[]> {
  return rows<Entry>(
    svc.database.db,
    sql`SELECT action, actor_type, actor_user_id::text AS actor_user_id, entity_name, summary_key, summary_params
        FROM history_entries WHERE location_id = ${locationId} AND action = ${action} ORDER BY at`,
  );
}

/** The entry's summary as the server words it, and both languages of the app know its key. */
function words(e: Entry): string {
  expect(historyEn).toHaveProperty(`history.summary.${e.summary_key}`);
  expect(historyAr).toHaveProperty(`history.summary.${e.summary_key}`);
  return summaryText(e.summary_key, e.summary_params);
}

describe("history of a location's life", () => {
  test("deleted and restored: one entry each, by the owner, in words", async ({ svc, as }) => {
    const made = await as.owner.post("/api/v1/locations", { name: "Attic" });
    const id = made.body.id as string;
    expect((await as.owner.request("DELETE", `/api/v1/locations/${id}`, { confirm: "Attic" })).status).toBe(200);
    const [deleted] = await entries(svc, id, "location.deleted");
    expect(deleted).toMatchObject({ actor_type: "user", actor_user_id: as.owner.userId, entity_name: "Attic" });
    expect(words(deleted!)).toBe("Moved location Attic to the trash");
    expect((await as.owner.post(`/api/v1/locations/${id}/restore`)).status).toBe(200);
    const [restored] = await entries(svc, id, "location.restored");
    expect(restored).toMatchObject({ actor_type: "user", actor_user_id: as.owner.userId });
    expect(words(restored!)).toBe("Restored location Attic from the trash");
    // Restored as it was: listed again.
    expect(((await as.owner.get("/api/v1/locations")).body.items as { id: string }[]).map((l) => l.id)).toContain(id);
  });

  test("transferred: the location's entry names both people, beside each one's role change", async ({ svc, as }) => {
    const made = await as.owner.post("/api/v1/locations", { name: "Boathouse" });
    const id = made.body.id as string;
    const invite = await as.owner.post(`/api/v1/locations/${id}/invites`, { role: "member" });
    expect((await as.member.post("/api/v1/invites/accept", { token: invite.body.token })).status).toBe(200);
    expect((await as.owner.post(`/api/v1/locations/${id}/transfer`, { userId: as.member.userId, confirm: "Boathouse" })).status).toBe(200);
    const [moved] = await entries(svc, id, "location.transferred");
    expect(moved).toMatchObject({ actor_type: "user", actor_user_id: as.owner.userId, entity_name: "Boathouse" });
    const [owner] = await rows<{ name: string }>(svc.database.db, sql`SELECT name FROM users WHERE id = ${as.owner.userId}`);
    const [member] = await rows<{ name: string }>(svc.database.db, sql`SELECT name FROM users WHERE id = ${as.member.userId}`);
    expect(words(moved!)).toBe(`${owner!.name} handed location Boathouse over to ${member!.name}`);
    expect((await entries(svc, id, "member.updated")).map((e) => e.summary_params.to)).toEqual(["admin", "owner"]);
  });
});

describe("history of a member joining", () => {
  test("by invite: the person who accepted, with the invite's role", async ({ svc, as }) => {
    const made = await as.owner.post("/api/v1/locations", { name: "Studio" });
    const id = made.body.id as string;
    const invite = await as.owner.post(`/api/v1/locations/${id}/invites`, { role: "viewer" });
    const person = await svc.signedIn("Ina Invited");
    expect((await person.post("/api/v1/invites/accept", { token: invite.body.token })).body).toEqual({ locationId: id, role: "viewer" });
    const [joined] = await entries(svc, id, "member.joined");
    expect(joined).toMatchObject({ actor_type: "user", actor_user_id: person.userId, entity_name: "Ina Invited" });
    expect(words(joined!)).toBe("Ina Invited joined as viewer");
  });

  test("as a managed account: the admin who made it", async ({ svc, as, loc }) => {
    const res = await as.admin.post(`/api/v1/locations/${loc}/managed-accounts`, { username: `kid_${Date.now() % 100000}`, displayName: "Kit Kid" });
    expect(res.status).toBe(201);
    const joined = (await entries(svc, loc, "member.joined")).find((e) => e.entity_name === "Kit Kid");
    expect(joined).toMatchObject({ actor_type: "user", actor_user_id: as.admin.userId });
    expect(words(joined!)).toBe("Kit Kid joined as member");
  });
});

test("the AI's reading fills a thing without bumping its version, and its entry names no one", async ({ svc, as, loc }) => {
  const made = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Kettle" });
  const before = made.body.rowVersion as number;
  const args = { id: made.body.id, fill: { colour: "red" }, fieldStatus: { colour: { state: "extracted", confidence: 0.9 } }, classes: {}, call: null };
  const applied = await asSystem(svc.database.db, (tx) => runSystem(tx, SYSTEM_ACTOR, { name: "thing.extract", locationId: loc, args }, { undoWindowMs: 0 }));
  expect(applied.rowVersion).toBe(before);
  const thing = (await as.member.get(`/api/v1/things/${made.body.id as string}`)).body;
  expect(thing).toMatchObject({ colour: "red", rowVersion: before });
  // A device's edit made against the version it had still applies.
  expect((await as.member.patch(`/api/v1/things/${made.body.id as string}`, { rowVersion: before, name: "Red kettle" })).status).toBe(200);
  const [entry] = await rows<Entry>(
    svc.database.db,
    sql`SELECT action, actor_type, actor_user_id::text AS actor_user_id, entity_name, summary_key, summary_params FROM history_entries
        WHERE entity_id = ${made.body.id as string} AND action = 'thing.extracted'`,
  );
  expect(entry).toMatchObject({ actor_type: "system", actor_user_id: null, summary_params: { fields: "colour" } });
});
