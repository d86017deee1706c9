/**
 * Secret fields: values stored encrypted (AES-256-GCM, a key per owner account), never readable
 * from the database, a shape, a log line or history; revealed one at a time with re-authentication
 * to the roles the owner's policy names, each reveal audited; tokens never reach them.
 */
import { mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test as base } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { errorBodySchema } from "../../../shared/errors.js";
import { locationSchema } from "../../../shared/locations.js";
import { thingDetailSchema } from "../../../shared/things.js";
import { migrate, openDatabase, rows, sql } from "../../../server/db/client.js";
import { SecretBox } from "../../../server/db/secret-box.js";
import { tokenMayReach } from "../../../server/modules/tokens/allow-list.js";
import { startService, type HttpResponse, type TestService } from "../../support/app.js";
import { locationWithRoles, type Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";
import { dumpAllTables, typeWithFields } from "../../support/secrets.js";

const PASSWORD = "correct horse battery";
const code = (res: HttpResponse) => errorBodySchema.parse(res.body).error.code;

/** A service whose log lines are kept, a location with every role, and a "Router" type with a secret and a plain field. */
const test = base
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern; this one has none
  .extend("env", { scope: "file" }, async ({}, { onCleanup }) => {
    const lines: string[] = [];
    const svc = await startService({ SVC_LOG_LEVEL: "info" }, undefined, { log: { write: (line: string) => void lines.push(line) } });
    onCleanup(() => svc.close());
    const team = await locationWithRoles(svc);
    const router = await typeWithFields(svc.database.db, team.locationId, "Router", [
      { key: "ssid", label: "SSID", kind: "text" },
      { key: "wifi_password", label: "Wi-Fi password", kind: "text", secret: true },
      { key: "admin_pin", label: "Admin PIN", kind: "number", secret: true },
    ]);
    return { svc, lines, loc: team.locationId, as: team.as, router };
  });

const reauth = async (c: Client) => expect((await c.post("/api/v1/me/reauthenticate", { password: PASSWORD })).status).toBe(200);

let n = 0;
/** A plaintext no other test value contains, to search bytes for. */
const plaintext = () => `pl41n-${++n}-${uuidv7()}`;

async function router(env: { loc: string; as: { member: Client }; router: { typeId: string } }, fields: Record<string, unknown>) {
  const res = await env.as.member.post(`/api/v1/locations/${env.loc}/things`, { name: "Router", typeId: env.router.typeId, fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return thingDetailSchema.parse(res.body);
}

const revealPath = (thingId: string, key = "wifi_password") => `/api/v1/things/${thingId}/secrets/${key}/reveal`;

describe("secret fields: writing and storage", () => {
  test("a secret value given at create is stored encrypted, never in fields; the detail says only that it is set", async ({ env }) => {
    const secret = plaintext();
    const thing = await router(env, { ssid: "home", wifi_password: secret });
    expect(thing.fields).toEqual({ ssid: "home" });
    expect(thing.secrets).toEqual([
      { key: "wifi_password", set: true },
      { key: "admin_pin", set: false },
    ]);
    const db = env.svc.database.db;
    const [row] = await rows<{ fields: Record<string, unknown> }>(db, sql`SELECT fields FROM things WHERE id = ${thing.id}`);
    expect(row!.fields).toEqual({ ssid: "home" });
    const [stored] = await rows<{ ciphertext: string; location_id: string }>(
      db,
      sql`SELECT ciphertext, location_id FROM secret_values WHERE thing_id = ${thing.id}`,
    );
    expect(stored!.location_id).toBe(env.loc);
    // base64 of a 12-byte iv, the ciphertext (as long as the JSON) and a 16-byte tag.
    expect(Buffer.from(stored!.ciphertext, "base64").length).toBe(12 + JSON.stringify(secret).length + 16);
    expect(stored!.ciphertext).not.toContain(secret);
  });

  test("a ciphertext copied to another thing, field or account does not open (AAD binds it to its row)", async ({ env }) => {
    const secret = plaintext();
    const a = await router(env, { wifi_password: secret });
    const db = env.svc.database.db;
    const [stored] = await rows<{ ciphertext: string }>(db, sql`SELECT ciphertext FROM secret_values WHERE thing_id = ${a.id}`);
    const [acc] = await rows<{ account_id: string }>(db, sql`SELECT account_id FROM locations WHERE id = ${env.loc}`);
    const box = new SecretBox(env.svc.config.secret);
    const owner = { accountId: acc!.account_id, entity: "thing" as const, entityId: a.id, fieldId: env.router.fieldIds.wifi_password! };
    expect(box.open(owner, stored!.ciphertext)).toBe(secret);
    expect(() => box.open({ ...owner, entityId: uuidv7() }, stored!.ciphertext)).toThrow();
    expect(() => box.open({ ...owner, fieldId: env.router.fieldIds.admin_pin! }, stored!.ciphertext)).toThrow();
    expect(() => box.open({ ...owner, accountId: uuidv7() }, stored!.ciphertext)).toThrow();
    expect(() => new SecretBox("another-secret-another-secret-another-0").open(owner, stored!.ciphertext)).toThrow();

    // Copied in the database onto another thing's row, the reveal fails rather than show it.
    const b = await router(env, { wifi_password: plaintext() });
    await db.execute(sql`UPDATE secret_values SET ciphertext = ${stored!.ciphertext} WHERE thing_id = ${b.id}`);
    await reauth(env.as.owner);
    expect((await env.as.owner.post(revealPath(a.id))).body).toEqual({ key: "wifi_password", value: secret });
    expect((await env.as.owner.post(revealPath(b.id))).status).toBe(500);
  });

  test("a secret value is checked by its kind: a bad one is 400 naming the field and nothing is stored", async ({ env }) => {
    const res = await env.as.member.post(`/api/v1/locations/${env.loc}/things`, { name: "Router", typeId: env.router.typeId, fields: { admin_pin: "four" } });
    expect(res.status).toBe(400);
    expect(errorBodySchema.parse(res.body).error.message).toContain("admin_pin");
    expect(JSON.stringify(res.body)).not.toContain("four");
  });

  test("update sets, replaces and clears a secret; history marks it changed and hidden, keeps no value, and cannot undo it", async ({ env }) => {
    const first = plaintext();
    const second = plaintext();
    const thing = await router(env, { ssid: "cafe" });
    expect(thing.secrets.find((s) => s.key === "wifi_password")!.set).toBe(false);
    const set = await env.as.member.patch(`/api/v1/things/${thing.id}`, { rowVersion: 1, fields: { wifi_password: first } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.secrets.find((s: { key: string }) => s.key === "wifi_password").set).toBe(true);
    expect(set.body.rowVersion).toBe(2);
    const replaced = await env.as.member.patch(`/api/v1/things/${thing.id}`, { rowVersion: 2, fields: { wifi_password: second, ssid: "cafe 2" } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.fields).toEqual({ ssid: "cafe 2" });
    await reauth(env.as.owner);
    expect((await env.as.owner.post(revealPath(thing.id))).body.value).toBe(second);

    const history = await env.as.member.get(`/api/v1/things/${thing.id}/history`);
    const updated = history.body.items.filter((e: { action: string }) => e.action === "thing.updated");
    expect(updated).toHaveLength(2);
    for (const e of updated) {
      expect(e.diff["fields.wifi_password"]).toEqual({ class: "secret", changed: true, hidden: true });
      expect(e.undoable_until).toBeNull();
    }
    expect(JSON.stringify(history.body)).not.toContain(first);
    expect(JSON.stringify(history.body)).not.toContain(second);
    const stored = await rows<{ before: unknown; after: unknown }>(
      env.svc.database.db,
      sql`SELECT before, after FROM history_entries WHERE entity_id = ${thing.id}`,
    );
    expect(JSON.stringify(stored)).not.toContain("wifi_password");

    const cleared = await env.as.member.patch(`/api/v1/things/${thing.id}`, { rowVersion: 3, fields: { wifi_password: null } });
    expect(cleared.body.secrets.find((s: { key: string }) => s.key === "wifi_password").set).toBe(false);
    expect((await env.as.owner.post(revealPath(thing.id))).body).toEqual({ key: "wifi_password", value: null });
  });

  test("a dropped pushed op becomes an inbox item without the secret value (withheld, and said so)", async ({ env }) => {
    const secret = plaintext();
    const res = await push(env.as.member, [
      op({
        name: "thing.create",
        locationId: env.loc,
        args: { id: uuidv7(), name: "Lost router", typeId: env.router.typeId, placeId: uuidv7(), fields: { ssid: "kept", wifi_password: secret } },
      }),
    ]);
    expect(res.body.results[0].status).toBe("dropped");
    const [item] = await rows<{ payload: { syncDrop: { op: { args: { fields: unknown } }; message: string } } }>(
      env.svc.database.db,
      sql`SELECT payload FROM inbox_items WHERE id = ${res.body.results[0].inboxItemId}`,
    );
    expect(item!.payload.syncDrop.op.args.fields).toEqual({ ssid: "kept" });
    expect(item!.payload.syncDrop.message).toContain("secret values were not kept: wifi_password");
    expect(await dumpAllTables(env.svc.database.db)).not.toContain(secret);
  });

  test("a personal token cannot write a secret value (403), though it may write the plain fields", async ({ env }) => {
    const thing = await router(env, { ssid: "a" });
    const made = await env.as.member.post("/api/v1/tokens", { name: "writer", scope: "write", locationIds: [env.loc] });
    const auth = { authorization: `Bearer ${made.body.secret}` };
    const c = env.svc.client();
    const refused = await c.request("PATCH", `/api/v1/things/${thing.id}`, { rowVersion: 1, fields: { wifi_password: plaintext() } }, auth);
    expect(refused.status).toBe(403);
    const plain = await c.request("PATCH", `/api/v1/things/${thing.id}`, { rowVersion: 1, fields: { ssid: "b" } }, auth);
    expect(plain.status).toBe(200);
    expect(plain.body.secrets.find((s: { key: string }) => s.key === "wifi_password").set).toBe(false);
  });

  test("a pushed op carries a secret value the same way", async ({ env }) => {
    const secret = plaintext();
    const id = uuidv7();
    const res = await push(env.as.member, [
      op({ name: "thing.create", locationId: env.loc, args: { id, name: "Pushed router", typeId: env.router.typeId, fields: { wifi_password: secret } } }),
    ]);
    expect(res.body.results[0].status).toBe("applied");
    const detail = await env.as.viewer.get(`/api/v1/things/${id}`);
    expect(detail.body.secrets[0]).toEqual({ key: "wifi_password", set: true });
    expect(JSON.stringify(detail.body)).not.toContain(secret);
  });
});

describe("secret fields: a value is never readable where it should not be", () => {
  test("not from any table, the change log included; not from a shape; not from history; not from a log line", async ({ env }) => {
    const secret = plaintext();
    const thing = await router(env, { ssid: "office", wifi_password: secret });
    await env.as.member.patch(`/api/v1/things/${thing.id}`, { rowVersion: 1, fields: { wifi_password: `${secret}-2`, ssid: "office 2" } });
    await reauth(env.as.owner);
    expect((await env.as.owner.post(revealPath(thing.id))).body.value).toBe(`${secret}-2`);
    // A refused write with the value in it, too.
    await env.as.member.patch(`/api/v1/things/${thing.id}`, { rowVersion: 1, fields: { wifi_password: `${secret}-3` } });

    const dump = await dumpAllTables(env.svc.database.db);
    expect(dump).toContain("office 2"); // the dump does hold the plain values
    expect(dump).not.toContain(secret);

    for (const name of ["things", "types", "type_fields", "locations"]) {
      const shape = await env.as.member.get(`/api/v1/sync/shape/${name}?offset=-1`);
      expect(shape.status).toBe(200);
      const text = JSON.stringify(shape.body);
      if (name === "things") expect(text).toContain("office 2");
      expect(text).not.toContain(secret);
    }
    const history = await env.as.owner.get(`/api/v1/things/${thing.id}/history`);
    expect(history.body.items.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(history.body)).not.toContain(secret);
    expect(env.lines.length).toBeGreaterThan(0);
    expect(env.lines.join("\n")).not.toContain(secret);
  });
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe("secret fields: the database files", () => {
  // The embedded database on disk, as `npm start` keeps it; on PostgreSQL (TEST_DATABASE_URL) the table dump above stands in.
  base.skipIf(!!process.env.TEST_DATABASE_URL)(
    "no file of the embedded database holds a secret value, while a plain one is there",
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), "svc-secret-pg-"));
      const database = await openDatabase({ dataDir });
      await migrate(database);
      const svc: TestService = await startService({}, database);
      const secret = plaintext();
      const plain = plaintext();
      try {
        const team = await locationWithRoles(svc);
        const t = await typeWithFields(svc.database.db, team.locationId, "Router", [
          { key: "ssid", kind: "text" },
          { key: "wifi_password", kind: "text", secret: true },
        ]);
        const res = await team.as.member.post(`/api/v1/locations/${team.locationId}/things`, {
          name: "Router",
          typeId: t.typeId,
          fields: { ssid: plain, wifi_password: secret },
        });
        expect(res.status).toBe(201);
        await svc.database.db.execute(sql`CHECKPOINT`);
      } finally {
        await svc.close();
      }
      const files = filesUnder(dataDir);
      expect(files.length).toBeGreaterThan(100);
      const holding = (needle: string) => files.filter((f) => readFileSync(f).includes(Buffer.from(needle)));
      expect(holding(plain).length).toBeGreaterThan(0); // the search does find what is there
      expect(holding(secret)).toEqual([]);
    },
    120_000,
  );
});

describe("secret fields: reveal", () => {
  test("needs re-authentication within five minutes (403 reauth_required), as the recovery kit does", async ({ env }) => {
    const thing = await router(env, { wifi_password: plaintext() });
    const fresh = await env.svc.signedIn("Fresh Owner");
    // Another owner's thing is not theirs, but the re-authentication comes first and says nothing of it.
    expect(code(await fresh.post(revealPath(thing.id)))).toBe("reauth_required");
    const c = env.as.owner;
    await env.svc.database.db.execute(sql`UPDATE auth_sessions SET reauthenticated_at = now() - interval '6 minutes' WHERE user_id = ${c.userId}`);
    const stale = await c.post(revealPath(thing.id));
    expect(stale.status).toBe(403);
    expect(code(stale)).toBe("reauth_required");
  });

  test("the owner always may; other roles when the owner's policy names them; each reveal is audited without the value", async ({ env }) => {
    const secret = plaintext();
    const thing = await router(env, { wifi_password: secret });
    for (const c of [env.as.owner, env.as.admin, env.as.member, env.as.viewer]) await reauth(c);
    expect((await env.as.owner.post(revealPath(thing.id))).body).toEqual({ key: "wifi_password", value: secret });
    for (const role of ["admin", "member", "viewer"] as const) {
      const res = await env.as[role].post(revealPath(thing.id));
      expect(res.status, role).toBe(403);
      expect(code(res)).toBe("forbidden");
    }
    const policy = await env.as.owner.patch(`/api/v1/locations/${env.loc}`, { secretRevealRoles: ["member", "viewer"] });
    expect(policy.status).toBe(200);
    expect(locationSchema.parse(policy.body).secretRevealRoles).toEqual(["owner", "member", "viewer"]);
    expect((await env.as.member.post(revealPath(thing.id))).body.value).toBe(secret);
    // A viewer may write no history, but may record their own reveal (migrations/0018).
    const byViewer = await env.as.viewer.post(revealPath(thing.id));
    expect(byViewer.status, JSON.stringify(byViewer.body)).toBe(200);
    expect(byViewer.headers.get("cache-control")).toBe("no-store");
    expect((await env.as.admin.post(revealPath(thing.id))).status).toBe(403);

    const history = await env.as.owner.get(`/api/v1/things/${thing.id}/history`);
    const reveals = history.body.items.filter((e: { action: string }) => e.action === "secret.revealed");
    expect(reveals.map((e: { actor: { id: string } }) => e.actor.id).sort()).toEqual([env.as.owner.userId, env.as.member.userId, env.as.viewer.userId].sort());
    for (const e of reveals) {
      expect(e.summary).toBe("Revealed Wi-Fi password of Router");
      expect(e.diff).toEqual({ "fields.wifi_password": { class: "secret", changed: false, hidden: true } });
      expect(e.undoable_until).toBeNull();
    }
    expect(JSON.stringify(history.body)).not.toContain(secret);
    await env.as.owner.patch(`/api/v1/locations/${env.loc}`, { secretRevealRoles: [] });
  });

  test("a key that is not a secret field of the thing's type is 404; a secret with no value answers null", async ({ env }) => {
    const thing = await router(env, { ssid: "x" });
    await reauth(env.as.owner);
    expect((await env.as.owner.post(revealPath(thing.id, "ssid"))).status).toBe(404);
    expect((await env.as.owner.post(revealPath(thing.id, "nope"))).status).toBe(404);
    expect((await env.as.owner.post(revealPath(uuidv7()))).status).toBe(404);
    expect((await env.as.owner.post(revealPath(thing.id, "admin_pin"))).body).toEqual({ key: "admin_pin", value: null });
    expect((await env.as.outsider.post(revealPath(thing.id))).status).toBe(403); // not re-authenticated: nothing is said of the thing
    await reauth(env.as.outsider);
    expect((await env.as.outsider.post(revealPath(thing.id))).status).toBe(404);
  });

  test("personal tokens never reach a reveal, a conversion or the policy (403), whatever their scope", async ({ env }) => {
    const thing = await router(env, { wifi_password: plaintext() });
    const made = await env.as.owner.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [env.loc] });
    expect(made.status).toBe(201);
    const auth = { authorization: `Bearer ${made.body.secret}` };
    const c = env.svc.client();
    expect((await c.request("POST", revealPath(thing.id), {}, auth)).status).toBe(403);
    expect((await c.request("POST", `/api/v1/type-fields/${env.router.fieldIds.ssid}/convert`, { toSecret: true }, auth)).status).toBe(403);
    expect((await c.request("POST", `/api/v1/type-fields/${env.router.fieldIds.ssid}/convert/preview`, { toSecret: true }, auth)).status).toBe(403);
    expect((await c.request("PATCH", `/api/v1/locations/${env.loc}`, { secretRevealRoles: ["member"] }, auth)).status).toBe(403);
    expect(tokenMayReach("POST", revealPath(thing.id))).toBe(false);
    expect(tokenMayReach("POST", `/api/v1/type-fields/${uuidv7()}/convert`)).toBe(false);
  });
});

describe("secret fields: the owner's policy", () => {
  test("only the owner sets secretRevealRoles (admins 403); the owner is always kept; at most the four roles", async ({ env }) => {
    const admin = await env.as.admin.patch(`/api/v1/locations/${env.loc}`, { secretRevealRoles: ["admin"] });
    expect(admin.status).toBe(403);
    expect(code(admin)).toBe("forbidden");
    expect((await env.as.admin.patch(`/api/v1/locations/${env.loc}`, { viewersSeeMoney: false })).status).toBe(200);
    const own = await env.as.owner.patch(`/api/v1/locations/${env.loc}`, { secretRevealRoles: ["admin", "admin"] });
    expect(own.body.secretRevealRoles).toEqual(["owner", "admin"]);
    const four = await env.as.owner.patch(`/api/v1/locations/${env.loc}`, { secretRevealRoles: ["viewer", "member", "admin", "owner"] });
    expect(four.body.secretRevealRoles).toEqual(["owner", "admin", "member", "viewer"]);
    const five = await env.as.owner.patch(`/api/v1/locations/${env.loc}`, { secretRevealRoles: ["viewer", "member", "admin", "owner", "owner"] });
    expect(five.status).toBe(400);
    expect(code(five)).toBe("validation_failed");
    expect((await env.as.owner.patch(`/api/v1/locations/${env.loc}`, { secretRevealRoles: ["guest"] })).status).toBe(400);
    const now = await env.as.owner.get(`/api/v1/locations/${env.loc}`);
    expect(now.body.secretRevealRoles).toEqual(["owner", "admin", "member", "viewer"]);
    await env.as.owner.patch(`/api/v1/locations/${env.loc}`, { secretRevealRoles: [] });
    expect((await env.as.owner.get(`/api/v1/locations/${env.loc}`)).body.secretRevealRoles).toEqual(["owner"]);
  });
});

describe("secret fields: conversion", () => {
  test("preview and conversion are the owner's (admins 403); plain to secret moves values out of fields and back", async ({ env }) => {
    const db = env.svc.database.db;
    const t = await typeWithFields(db, env.loc, "Safe", [{ key: "code", label: "Code", kind: "text" }]);
    const values = [plaintext(), plaintext()];
    const ids: string[] = [];
    for (const v of values) {
      const res = await env.as.member.post(`/api/v1/locations/${env.loc}/things`, { name: "Safe", typeId: t.typeId, fields: { code: v } });
      ids.push(res.body.id);
    }
    // A change while the field was plain: its history holds the old and new values.
    const earlier = plaintext();
    const edited = await env.as.member.patch(`/api/v1/things/${ids[0]}`, { rowVersion: 1, fields: { code: earlier } });
    expect(edited.status).toBe(200);
    const edit = await env.as.member.patch(`/api/v1/things/${ids[0]}`, { rowVersion: 2, fields: { code: values[0] } });
    expect(edit.status).toBe(200);
    expect(JSON.stringify(await rows(db, sql`SELECT before, after FROM history_entries WHERE entity_id = ${ids[0]}`))).toContain(earlier);
    const fieldId = t.fieldIds.code!;
    expect((await env.as.admin.post(`/api/v1/type-fields/${fieldId}/convert/preview`, { toSecret: true })).status).toBe(403);
    expect((await env.as.admin.post(`/api/v1/type-fields/${fieldId}/convert`, { toSecret: true })).status).toBe(403);
    expect((await env.as.outsider.post(`/api/v1/type-fields/${fieldId}/convert/preview`, { toSecret: true })).status).toBe(404);
    expect((await env.as.owner.post(`/api/v1/type-fields/${fieldId}/convert/preview`, {})).status).toBe(400);
    const preview = await env.as.owner.post(`/api/v1/type-fields/${fieldId}/convert/preview`, { toSecret: true });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toEqual({ locations: [{ id: env.loc, name: expect.any(String), values: 2, convertible: 2, toNotes: 0 }], total: 2 });

    const done = await env.as.owner.post(`/api/v1/type-fields/${fieldId}/convert`, { toSecret: true });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ id: fieldId, secret: true, total: 2 });
    expect(done.headers.get("x-txid")).toMatch(/^\d+$/);
    const dump = await dumpAllTables(db);
    const [thingRow] = await rows<{ fields: unknown; row_version: number }>(db, sql`SELECT fields, row_version FROM things WHERE id = ${ids[0]}`);
    expect(thingRow).toEqual({ fields: {}, row_version: 4 });
    // Gone from the thing and from its history (the change log keeps the rows as they were written).
    const history = await rows<{ before: unknown; after: unknown; diff: Record<string, unknown> }>(
      db,
      sql`SELECT before, after, diff FROM history_entries WHERE entity_id = ${ids[0]} AND action = 'thing.updated'`,
    );
    expect(history).toHaveLength(2);
    expect(JSON.stringify(history)).not.toContain(earlier);
    expect(JSON.stringify(history)).not.toContain(values[0]);
    for (const h of history) expect(h.diff["fields.code"]).toEqual({ class: "secret", changed: true, hidden: true });
    expect(dump.split("\n").filter((l) => l.includes(earlier) && !l.includes('"table_name"'))).toEqual([]);
    await reauth(env.as.owner);
    expect((await env.as.owner.post(revealPath(ids[0]!, "code"))).body.value).toBe(values[0]);
    // Again: nothing moves.
    expect((await env.as.owner.post(`/api/v1/type-fields/${fieldId}/convert`, { toSecret: true })).body.total).toBe(0);

    const back = await env.as.owner.post(`/api/v1/type-fields/${fieldId}/convert`, { toSecret: false });
    expect(back.body).toMatchObject({ secret: false, total: 2 });
    const detail = await env.as.viewer.get(`/api/v1/things/${ids[1]}`);
    expect(detail.body.fields).toEqual({ code: values[1] });
    expect(detail.body.secrets).toEqual([]);
    expect(detail.body.rowVersion).toBe(3);
    expect((await env.as.viewer.get(`/api/v1/things/${ids[0]}`)).body.rowVersion).toBe(5);
  });
});
