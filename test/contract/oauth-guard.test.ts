/** The guard in front of client-metadata-document fetches (issue 6; research/auth-notes.md 4.7). */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GuardRefusal, guardedFetchJson, MAX_DOCUMENT_BYTES, type Resolver } from "../../server/oauth/guarded-fetch.js";

const strict = { allowLoopback: false };

const refusal = async (p: Promise<unknown>): Promise<string> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GuardRefusal);
  return (err as GuardRefusal).reason;
};

describe("the guard refuses internal addresses before connecting", () => {
  test.each([
    ["https://10.0.0.1/client.json"],
    ["https://169.254.169.254/latest/meta-data"],
    ["https://[::1]/client.json"],
    // The URL parser rewrites the dotted form to hex, so as written it is not the URL it names;
    // the hex form and the DNS answer below reach the address check itself.
    ["https://[::ffff:7f00:1]/client.json"],
    ["https://[64:ff9b::a9fe:a9fe]/client.json"],
    ["https://127.0.0.1/client.json"],
    ["https://0.0.0.0/client.json"],
  ])("%s", async (url) => {
    expect(await refusal(guardedFetchJson(url, strict))).toBe("the host resolves to an internal address");
  });

  test("[::ffff:127.0.0.1] as written is refused too", async () => {
    expect(await refusal(guardedFetchJson("https://[::ffff:127.0.0.1]/client.json", strict))).toBe("the URL is not in normal form");
    const mapped: Resolver = async () => [{ address: "::ffff:127.0.0.1", family: 6 }];
    expect(await refusal(guardedFetchJson("https://client.example/metadata.json", { ...strict, resolve: mapped }))).toBe(
      "the host resolves to an internal address",
    );
  });

  test("a host name with any DNS answer inside is refused, even next to a public one", async () => {
    const resolve: Resolver = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "10.20.30.40", family: 4 },
    ];
    expect(await refusal(guardedFetchJson("https://client.example/metadata.json", { ...strict, resolve }))).toBe("the host resolves to an internal address");
    const mapped: Resolver = async () => [{ address: "::ffff:192.168.1.1", family: 6 }];
    expect(await refusal(guardedFetchJson("https://client.example/metadata.json", { ...strict, resolve: mapped }))).toBe(
      "the host resolves to an internal address",
    );
  });

  test("localhost by name is refused without the test setting", async () => {
    expect(await refusal(guardedFetchJson("https://localhost/client.json", strict))).toBe("the host resolves to an internal address");
  });

  test.each([
    ["http://client.example/metadata.json", "https only"],
    ["https://user:pw@client.example/metadata.json", "credentials in the URL"],
    ["https://client.example/metadata.json#x", "fragment in the URL"],
    ["https://client.example/", "a path is required"],
    ["https://client.example/a/../metadata.json", "the URL is not in normal form"],
    ["https://CLIENT.example/metadata.json", "the URL is not in normal form"],
  ])("the URL %s is refused: %s", async (url, reason) => {
    expect(await refusal(guardedFetchJson(url, strict))).toBe(reason);
  });
});

describe("fetching through the guard (loopback allowed by the test setting)", () => {
  let server: Server;
  let port: number;
  const loopback = { allowLoopback: true };
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/client.json") {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=300" });
        return res.end(JSON.stringify({ client_id: "x" }));
      }
      if (req.url === "/redirect") return res.writeHead(302, { location: "http://169.254.169.254/" }).end();
      if (req.url === "/big") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(`"${"x".repeat(MAX_DOCUMENT_BYTES + 10)}"`);
      }
      if (req.url === "/html") return res.writeHead(200, { "content-type": "text/html" }).end("<p>");
      if (req.url === "/host") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ host: req.headers.host }));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test("a JSON document is read, with its max-age", async () => {
    const doc = await guardedFetchJson(`http://127.0.0.1:${port}/client.json`, loopback);
    expect(doc).toEqual({ body: { client_id: "x" }, maxAge: 300 });
  });

  test("the connection goes to the checked address; the Host header keeps the name", async () => {
    // client.invalid exists in no DNS: only the pinned lookup can reach the server.
    const resolve: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
    const doc = await guardedFetchJson(`http://client.invalid:${port}/host`, { ...loopback, resolve });
    expect(doc.body).toEqual({ host: `client.invalid:${port}` });
  });

  test("redirects are not followed; oversized and non-JSON answers are refused", async () => {
    expect(await refusal(guardedFetchJson(`http://127.0.0.1:${port}/redirect`, loopback))).toMatch(/^status 302/);
    expect(await refusal(guardedFetchJson(`http://127.0.0.1:${port}/big`, loopback))).toBe("the document is too large");
    expect(await refusal(guardedFetchJson(`http://127.0.0.1:${port}/html`, loopback))).toBe("not application/json");
  });

  test("http under the test setting is still loopback only", async () => {
    const resolve: Resolver = async () => [{ address: "93.184.215.14", family: 4 }];
    expect(await refusal(guardedFetchJson(`http://client.example:${port}/client.json`, { ...loopback, resolve }))).toBe("http is allowed for loopback only");
  });
});

describe("the client metadata store", () => {
  test("checks the document's client_id and redirect URIs, caches it, and fetches at most 10 a minute per host", async () => {
    const { ClientMetadataStore, FETCHES_PER_HOST } = await import("../../server/oauth/client-metadata.js");
    let served = 0;
    let doc: Record<string, unknown> = {};
    const server = createServer((_req, res) => {
      served++;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const store = new ClientMetadataStore({ allowLoopback: true });
      const id = `${base}/a.json`;
      doc = { client_id: `${base}/other.json`, client_name: "X", redirect_uris: ["https://x.example/cb"] };
      await expect(store.get(id)).rejects.toThrow(/another client_id/);
      doc = { client_id: id, client_name: "X", redirect_uris: ["http://x.example/cb"] };
      await expect(store.get(id)).rejects.toThrow(/neither https nor loopback/);
      doc = { client_id: id, client_name: "X", redirect_uris: ["https://x.example/cb"], token_endpoint_auth_method: "client_secret_basic" };
      await expect(store.get(id)).rejects.toThrow(/client secret/);
      doc = { client_id: id, client_name: "X", redirect_uris: ["https://x.example/cb"] };
      expect((await store.get(id)).clientName).toBe("X");
      const before = served;
      await store.get(id);
      expect(served).toBe(before);
      for (let i = served; i < FETCHES_PER_HOST.points; i++) await store.get(`${base}/n${i}.json`).catch(() => undefined);
      await expect(store.get(`${base}/one-more.json`)).rejects.toThrow(/Too many/);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
