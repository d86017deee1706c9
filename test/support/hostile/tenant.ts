/**
 * A tenant holding a live row of each kind of id, renewed when a request used one up; and /mcp calls.
 */
import { createECDH, randomBytes } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { rows, sql } from "../../../server/db/client.js";
import { memberships } from "../../../server/db/schema/index.js";
import { grantAndCode } from "../../../server/oauth/grants.js";
import { PROTOCOL } from "../../../sync/protocol.js";
import type { HttpClient, TestService } from "../app.js";
import { PASSWORD, PNG, sendRaw, type RawResponse } from "./http.js";
import { ID_KINDS, type IdKind } from "./ids.js";

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
