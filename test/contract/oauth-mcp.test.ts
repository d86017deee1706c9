/**
 * OAuth 2.1 for MCP clients, end to end: discovery, consent, the code exchange driven by a real
 * OAuth client (oauth4webapi) against a client metadata document served on loopback (allowed by
 * SVC_OAUTH_ALLOW_LOOPBACK_CLIENTS only), and /mcp driven by the MCP SDK's own client.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startService, type TestService } from "../support/app.js";
import type { Client } from "../support/members.js";

const PUBLIC = "https://inventory.test";
const RESOURCE = `${PUBLIC}/mcp`;

let svc: TestService;
let docServer: Server;
let clientId: string;
let redirectUri: string;
let as: oauth.AuthorizationServer;
let owner: Client;
let home: string;
let workshop: string;

/** Requests for our public https URL go to the test server on loopback; nothing else is reachable. */
const toService = (input: string, init: RequestInit = {}): Promise<Response> => {
  const url = new URL(input);
  if (url.origin !== PUBLIC) throw new Error(`unexpected fetch to ${url.origin}`);
  return fetch(`${svc.url}${url.pathname}${url.search}`, init);
};
const opts = {
  [oauth.customFetch]: (url: string, o: oauth.CustomFetchOptions<string, unknown>) =>
    toService(url, { method: o.method, headers: o.headers, ...(o.body !== undefined ? { body: o.body as BodyInit } : {}), redirect: o.redirect }),
};

const client = (): oauth.Client => ({ client_id: clientId, token_endpoint_auth_method: "none" });

beforeAll(async () => {
  svc = await startService({ SVC_PUBLIC_URL: PUBLIC, SVC_OAUTH_ALLOW_LOOPBACK_CLIENTS: "1" });
  docServer = createServer((req, res) => {
    if (req.url !== "/client.json") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ client_id: clientId, client_name: "Test Assistant", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }));
  });
  await new Promise<void>((r) => docServer.listen(0, "127.0.0.1", r));
  const port = (docServer.address() as AddressInfo).port;
  clientId = `http://127.0.0.1:${port}/client.json`;
  redirectUri = `http://127.0.0.1:${port}/callback`;
  as = await oauth.processDiscoveryResponse(new URL(PUBLIC), await oauth.discoveryRequest(new URL(PUBLIC), { ...opts, algorithm: "oauth2" }));
  owner = await svc.signedIn("Olive Owner");
  home = (await owner.get("/api/v1/me")).body.locations[0].id as string;
  workshop = (await owner.post("/api/v1/locations", { name: "Workshop" })).body.id as string;
});
afterAll(async () => {
  await new Promise<void>((r) => docServer.close(() => r()));
  await svc?.close();
});

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

interface Flow {
  verifier: string;
  challenge: string;
  state: string;
}

async function startFlow(extra: Record<string, string> = {}): Promise<{ flow: Flow; consent: Response }> {
  const verifier = oauth.generateRandomCodeVerifier();
  const challenge = await oauth.calculatePKCECodeChallenge(verifier);
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const params = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource: RESOURCE,
    scope: "svc:read svc:write",
    state,
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const consent = await toService(url.href, { headers: { cookie: cookieOf(owner) }, redirect: "manual" });
  return { flow: { verifier, challenge, state }, consent };
}

/** Submits the consent form as the person would, picking scopes and locations. */
async function consent(html: string, pick: { scopes: string[]; locations: string[]; decision?: string }): Promise<URL> {
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.append(
      m[1]!,
      m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))),
    );
  for (const s of pick.scopes) form.append("scope_choice", s);
  for (const l of pick.locations) form.append("location", l);
  form.append("decision", pick.decision ?? "allow");
  const res = await toService(`${PUBLIC}/oauth/authorize`, {
    method: "POST",
    headers: { cookie: cookieOf(owner), origin: PUBLIC, "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual",
  });
  expect(res.status, await res.clone().text()).toBe(303);
  return new URL(res.headers.get("location")!);
}

async function exchange(callback: URL, flow: Flow, resource = RESOURCE): Promise<Response> {
  const params = oauth.validateAuthResponse(as, client(), callback, flow.state);
  return oauth.authorizationCodeGrantRequest(as, client(), oauth.None(), params, redirectUri, flow.verifier, { ...opts, additionalParameters: { resource } });
}

async function accessToken(pick: { scopes: string[]; locations: string[] }): Promise<string> {
  const { flow, consent: page } = await startFlow();
  const callback = await consent(await page.text(), pick);
  const tokens = await oauth.processAuthorizationCodeResponse(as, client(), await exchange(callback, flow));
  return tokens.access_token;
}

async function mcp(token: string): Promise<McpClient> {
  const c = new McpClient({ name: "contract-test", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return c;
}

const text = (r: Awaited<ReturnType<McpClient["callTool"]>>) => (r.content as { type: string; text: string }[])[0]!.text;

describe("discovery", () => {
  test("authorization server metadata: S256 only, client metadata documents, no registration endpoint", () => {
    expect(as.issuer).toBe(PUBLIC);
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.client_id_metadata_document_supported).toBe(true);
    expect(as.registration_endpoint).toBeUndefined();
    expect(as.token_endpoint).toBe(`${PUBLIC}/oauth/token`);
  });

  test("protected resource metadata names <public URL>/mcp", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const doc = (await (await toService(`${PUBLIC}${path}`)).json()) as { resource: string; authorization_servers: string[] };
      expect(doc).toMatchObject({ resource: RESOURCE, authorization_servers: [PUBLIC] });
    }
  });
});

describe("the authorization code flow", () => {
  test("the consent page shows the client, its host and the redirect host, and lists the person's locations", async () => {
    const { consent: page } = await startFlow();
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Test Assistant");
    expect(html).toContain(new URL(clientId).host);
    expect(html).toContain("Workshop");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    // The form's answer redirects to the app: browsers check that redirect against form-action.
    expect(page.headers.get("content-security-policy")).toContain(`form-action 'self' ${new URL(redirectUri).origin};`);
  });

  test("without a session the page asks to sign in first; a redirect_uri the document does not list is refused on our page, never redirected to", async () => {
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set("client_id", clientId);
    url.searchParams.set("redirect_uri", redirectUri);
    // A proven client with an incomplete request hears about it at its redirect.
    const incomplete = await toService(url.href, { redirect: "manual" });
    expect(incomplete.status).toBe(303);
    expect(new URL(incomplete.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
    const anonymous = await toService(
      `${url.href}&response_type=code&code_challenge=${"a".repeat(43)}&code_challenge_method=S256&resource=${encodeURIComponent(RESOURCE)}`,
      { redirect: "manual" },
    );
    expect(anonymous.status).toBe(401);
    const { consent: elsewhere } = await startFlow({ redirect_uri: "https://attacker.example/cb" });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get("location")).toBeNull();
  });

  test("a wrong resource at the authorization endpoint goes back to the client as invalid_target", async () => {
    const { consent: res } = await startFlow({ resource: "https://elsewhere.example/mcp" });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("invalid_target");
  });

  test("PKCE mismatch, wrong resource and a reused code are refused; reuse revokes the grant", async () => {
    const first = await startFlow();
    const cb1 = await consent(await first.consent.text(), { scopes: [], locations: [home] });
    const mismatch = await exchange(cb1, { ...first.flow, verifier: oauth.generateRandomCodeVerifier() });
    await expect(oauth.processAuthorizationCodeResponse(as, client(), mismatch)).rejects.toMatchObject({ error: "invalid_grant" });

    const second = await startFlow();
    const cb2 = await consent(await second.consent.text(), { scopes: [], locations: [home] });
    const wrongResource = await exchange(cb2, second.flow, "https://elsewhere.example/mcp");
    await expect(oauth.processAuthorizationCodeResponse(as, client(), wrongResource)).rejects.toMatchObject({ error: "invalid_target" });

    const third = await startFlow();
    const cb3 = await consent(await third.consent.text(), { scopes: [], locations: [home] });
    const token = (await oauth.processAuthorizationCodeResponse(as, client(), await exchange(cb3, third.flow))).access_token;
    const reused = await exchange(cb3, third.flow);
    await expect(oauth.processAuthorizationCodeResponse(as, client(), reused)).rejects.toMatchObject({ error: "invalid_grant" });
    await expect(mcp(token)).rejects.toThrow();
  });

  test("denying sends access_denied back to the client", async () => {
    const { consent: page } = await startFlow();
    const cb = await consent(await page.text(), { scopes: [], locations: [home], decision: "deny" });
    expect(cb.searchParams.get("error")).toBe("access_denied");
  });
});

describe("/mcp with the MCP SDK's client", () => {
  test("a read and write grant lists the tools and writes through the one write path as actor mcp, only in its locations", async () => {
    const c = await mcp(await accessToken({ scopes: ["svc:write"], locations: [home] }));
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(["search_things", "get_thing", "list_places", "where_is", "create_thing", "move_thing", "list_inbox", "review_inbox_item"]),
    );
    const made = await c.callTool({ name: "create_thing", arguments: { locationId: home, thing: { name: "Cordless drill" } } });
    expect(made.isError).toBeFalsy();
    const thing = JSON.parse(text(made)) as { id: string };
    const got = JSON.parse(text(await c.callTool({ name: "get_thing", arguments: { id: thing.id } }))) as { history: { actor: { type: string } }[] };
    expect(got.history[0]!.actor.type).toBe("mcp");
    const where = JSON.parse(text(await c.callTool({ name: "where_is", arguments: { q: "drill" } }))) as { items: { name: string; path: string[] }[] };
    expect(where.items[0]).toMatchObject({ name: "Cordless drill", path: ["Unplaced"] });
    // The workshop is the owner's too, but not in this grant.
    const outside = await c.callTool({ name: "create_thing", arguments: { locationId: workshop, thing: { name: "Saw" } } });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toMatch(/^not_found/);
    const locations = JSON.parse(text(await c.callTool({ name: "list_locations", arguments: {} }))) as { items: { id: string }[] };
    expect(locations.items.map((l) => l.id)).toEqual([home]);
    await c.close();
  });

  test("a location picked in upper case on the consent form, and ids in upper case in tool calls, are the same ids", async () => {
    const c = await mcp(await accessToken({ scopes: ["svc:write"], locations: [home.toUpperCase()] }));
    const locations = JSON.parse(text(await c.callTool({ name: "list_locations", arguments: {} }))) as { items: { id: string }[] };
    expect(locations.items.map((l) => l.id)).toEqual([home]);
    const made = await c.callTool({ name: "create_thing", arguments: { locationId: home.toUpperCase(), thing: { name: "Hedge trimmer" } } });
    expect(made.isError, text(made)).toBeFalsy();
    const thing = JSON.parse(text(made)) as { id: string };
    const viaRest = await owner.get(`/api/v1/things/${thing.id}`);
    expect(viaRest.body.locationId, JSON.stringify(viaRest.body)).toBe(home);
    const got = JSON.parse(text(await c.callTool({ name: "get_thing", arguments: { id: thing.id.toUpperCase() } }))) as { thing: { id: string } };
    expect(got.thing.id).toBe(thing.id);
    await c.close();
  });

  test("update_thing and move_thing change a thing the assistant found; list_places shows where it went", async () => {
    const shelf = await owner.post(`/api/v1/locations/${home}/places`, { name: "Garage shelf" });
    const c = await mcp(await accessToken({ scopes: ["svc:write"], locations: [home] }));
    const made = JSON.parse(text(await c.callTool({ name: "create_thing", arguments: { locationId: home, thing: { name: "Ladder" } } }))) as {
      id: string;
      rowVersion: number;
    };
    const renamed = await c.callTool({ name: "update_thing", arguments: { id: made.id, rowVersion: made.rowVersion, patch: { name: "Step ladder" } } });
    expect(JSON.parse(text(renamed))).toMatchObject({ name: "Step ladder" });
    const stale = await c.callTool({ name: "update_thing", arguments: { id: made.id, rowVersion: made.rowVersion, patch: { name: "Old ladder" } } });
    expect(stale.isError).toBe(true);
    expect(text(stale)).toMatch(/^version_conflict/);
    // Without a version the fields apply to the thing as it is now, as a REST PATCH's do.
    const unversioned = await c.callTool({ name: "update_thing", arguments: { id: made.id, patch: { name: "Tall ladder" } } });
    expect(unversioned.isError, text(unversioned)).toBeFalsy();
    expect(JSON.parse(text(unversioned))).toMatchObject({ name: "Tall ladder" });
    const moved = JSON.parse(text(await c.callTool({ name: "move_thing", arguments: { id: made.id, placeId: shelf.body.id as string } }))) as {
      path: { name: string }[];
    };
    expect(moved.path.map((p) => p.name)).toEqual(["Garage shelf"]);
    const placesOut = JSON.parse(text(await c.callTool({ name: "list_places", arguments: { locationId: home } }))) as { items: { name: string }[] };
    expect(placesOut.items.map((p) => p.name)).toContain("Garage shelf");
    await c.close();
  });

  test("a read-only grant has no write tools and cannot call one", async () => {
    const c = await mcp(await accessToken({ scopes: [], locations: [home, workshop] }));
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toContain("search_things");
    expect(names).not.toContain("create_thing");
    // Called by name anyway, each write tool is refused for the grant's scope, not "not found" or the role.
    const calls = [
      { name: "create_thing", arguments: { locationId: home, thing: { name: "Saw" } } },
      { name: "move_thing", arguments: { id: home, rowVersion: 1, placeId: home } },
    ];
    for (const call of calls) {
      const refused = await c.callTool(call);
      expect(refused.isError).toBe(true);
      expect(text(refused)).toBe(
        `forbidden: This connection was granted read access only; connect the assistant again and allow changes (svc:write) to use ${call.name}.`,
      );
    }
    const things = JSON.parse(text(await c.callTool({ name: "search_things", arguments: { locationId: home, q: "Saw" } }))) as { items: unknown[] };
    expect(things.items).toEqual([]);
    await c.close();
  });

  test("revoking the grant from the web app stops its access token at once", async () => {
    const token = await accessToken({ scopes: [], locations: [home] });
    const c = await mcp(token);
    const grants = await owner.get("/api/v1/oauth/grants");
    const latest = (grants.body.items as { id: string }[])[0]!;
    expect((await owner.delete(`/api/v1/oauth/grants/${latest.id}`)).status).toBe(200);
    await expect(c.listTools()).rejects.toThrow();
    await expect(mcp(token)).rejects.toThrow();
  });

  test("an expired access token, a cookie and a personal token are refused with 401 naming the resource metadata", async () => {
    const grantToken = await accessToken({ scopes: [], locations: [home] });
    const claims = await svc.services.oauth!.tokens.verify(grantToken);
    const expired = await svc.services.oauth!.tokens.issue(claims, new Date(Date.now() - 2 * 3600_000));
    const pat = (await owner.post("/api/v1/tokens", { name: "script", scope: "read", locationIds: [home] })).body.secret as string;
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    for (const extra of [{ authorization: `Bearer ${expired}` }, { cookie: cookieOf(owner), origin: PUBLIC }, { authorization: `Bearer ${pat}` }]) {
      const res = await fetch(`${svc.url}/mcp`, { method: "POST", headers: { ...headers, ...extra }, body });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${PUBLIC}/.well-known/oauth-protected-resource/mcp"`);
    }
    // And an access token is no key to the rest of the API.
    expect((await owner.request("GET", `/api/v1/locations/${home}/things`, undefined, { authorization: `Bearer ${grantToken}` })).status).toBe(401);
  });
});
