/**
 * A tenant holding a live row of each kind of id, renewed when a request used one up; and /mcp calls.
 */
import { v7 as uuidv7 } from "uuid";
import { rows, sql } from "../../../server/db/client.js";
import { grantAndCode } from "../../../server/oauth/grants.js";
import type { TestService } from "../app.js";
import { sendRaw, type RawResponse } from "./http.js";
import { ID_KINDS, type IdKind } from "./ids.js";
import { KINDS } from "./kinds/index.js";
import { ok, type Client, type MakerContext } from "./kinds/types.js";

export type { Client };

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

/**
 * A person with their personal location and, in it, a live row of every kind the routes name, each
 * made by its module's maker (kinds/): places, things (one a container), registries, a file, a
 * captured draft in the inbox (with its batch and op), history, a personal token, an OAuth grant, a
 * second session, a member, a managed account and the rest.
 */
export async function seedTenant(svc: TestService, name: string): Promise<Tenant> {
  const db = svc.database.db;
  const owner = await svc.signedIn(`${name} Owner`);
  const me = await ok(owner.get("/api/v1/me"), "me");
  const location = me.locations[0].id as string;
  const ids = { location } as Record<IdKind, string>;
  const scope = { locationIds: [location], userIds: [owner.userId] };
  let n = 0;
  const context: MakerContext = {
    svc,
    db,
    name,
    owner,
    location,
    ids,
    scope,
    next: () => ++n,
    make: async (kind) => {
      const def = KINDS.get(kind)!;
      await (def.madeWith ? context.make(def.madeWith) : def.make?.(context));
    },
  };
  for (const [kind, def] of KINDS) if (def.make && !def.madeWith) await context.make(kind);

  /** Whether each kind's current row can still be acted on (a kind without a rule always can). */
  const alive = async (): Promise<Record<IdKind, boolean>> => {
    const checks = [...KINDS].flatMap(([kind, def]) => (def.alive ? [sql`${def.alive(ids, location)} AS ${sql.identifier(kind)}`] : []));
    const [r] = await rows<Record<string, boolean>>(db, sql`SELECT ${sql.join(checks, sql`, `)}`);
    return Object.fromEntries(ID_KINDS.map((k) => [k, r![k] ?? true])) as Record<IdKind, boolean>;
  };

  return {
    name,
    owner,
    ids,
    scope,
    async renew() {
      const state = await alive();
      const dead = ID_KINDS.filter((k) => !state[k]);
      // A kind made with another is made again by it: once, even when both died (a thing brings its history event).
      for (const kind of dead) {
        const with_ = KINDS.get(kind)!.madeWith;
        if (!with_ || !dead.includes(with_)) await context.make(kind);
      }
      return dead;
    },
    async rowVersion(kind, id) {
      const def = KINDS.get(kind)!;
      if (def.rowVersion) return def.rowVersion(db, id);
      if (!def.table) return 1;
      const [r] = await rows<{ v: number }>(db, sql`SELECT row_version AS v FROM ${sql.identifier(def.table)} WHERE id = ${id}`);
      return r?.v ?? 1;
    },
  };
}
