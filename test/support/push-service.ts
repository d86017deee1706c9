/**
 * An in-process push service (RFC 8030) on loopback http, standing in for FCM or Mozilla's autopush.
 * It speaks the real wire format: every POST must carry a VAPID JWT (RFC 8292: `Authorization:
 * vapid t=<jwt>, k=<public key>`, ES256 signed by k, audience the endpoint's origin, not expired)
 * and an aes128gcm body (RFC 8188) that it decrypts as the browser would (RFC 8291) with the
 * subscriber's private key, which each test makes with node:crypto.
 */
import { createECDH, createDecipheriv, hkdfSync, randomBytes, randomUUID, type ECDH } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeProtectedHeader, importJWK, jwtVerify } from "jose";

export interface Delivery {
  /** The decrypted payload, parsed as JSON. */
  message: unknown;
  /** The raw plaintext: what a service worker's PushEvent.data would hold. */
  plaintext: Buffer;
  ttl: string | undefined;
  vapidSubject: unknown;
}

export interface Subscriber {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  received: Delivery[];
  /** What the next POSTs to this endpoint are answered with (201 unless set). */
  answer: number;
}

export interface PushServiceStandIn {
  origin: string;
  subscriber(): Subscriber;
  /** Requests refused because the JWT or the encryption was wrong, with why. */
  rejected: string[];
  close(): Promise<void>;
}

const b64u = (b: Buffer) => b.toString("base64url");

/** RFC 8291 section 3.4 + RFC 8188 section 2: one record, padding delimiter 0x02. */
export function decryptAes128gcm(body: Buffer, ua: ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (idlen !== 65 || asPublic[0] !== 0x04) throw new Error("keyid is not an uncompressed P-256 key");
  if (ciphertext.length > rs) throw new Error("more than one record");
  const ecdhSecret = ua.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), ua.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 0x02) throw new Error("no last-record padding delimiter");
  return padded.subarray(0, end);
}

/** RFC 8292: the JWT is signed by k, for this origin, and not expired. */
async function checkVapid(header: string | undefined, origin: string): Promise<unknown> {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!m) throw new Error("no vapid Authorization header");
  const [, token, k] = m as unknown as [string, string, string];
  const point = Buffer.from(k, "base64url");
  if (point.length !== 65 || point[0] !== 0x04) throw new Error("k is not an uncompressed P-256 key");
  const key = await importJWK({ kty: "EC", crv: "P-256", x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) }, "ES256");
  if (decodeProtectedHeader(token).alg !== "ES256") throw new Error("not ES256");
  const { payload } = await jwtVerify(token, key, { audience: origin, algorithms: ["ES256"], requiredClaims: ["exp"] });
  if ((payload.exp ?? 0) > Date.now() / 1000 + 24 * 3600 + 60) throw new Error("exp more than 24 hours ahead (RFC 8292 2)");
  return payload.sub;
}

const bodyOf = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });

export async function startPushService(): Promise<PushServiceStandIn> {
  const subs = new Map<string, { sub: Subscriber; ua: ECDH; auth: Buffer }>();
  const rejected: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const entry = subs.get(req.url ?? "");
      if (req.method !== "POST" || !entry) return res.writeHead(404).end();
      if (entry.sub.answer !== 201) return res.writeHead(entry.sub.answer).end();
      try {
        if (req.headers["content-encoding"] !== "aes128gcm") throw new Error("Content-Encoding is not aes128gcm");
        const vapidSubject = await checkVapid(req.headers.authorization, origin);
        const plaintext = decryptAes128gcm(body, entry.ua, entry.auth);
        entry.sub.received.push({ message: JSON.parse(plaintext.toString("utf8")), plaintext, ttl: req.headers.ttl as string | undefined, vapidSubject });
        res.writeHead(201, { location: `${origin}/message/${randomUUID()}` }).end();
      } catch (err) {
        rejected.push((err as Error).message);
        res.writeHead(400).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    rejected,
    subscriber() {
      const ua = createECDH("prime256v1");
      ua.generateKeys();
      const auth = randomBytes(16);
      const path = `/push/${randomUUID()}`;
      const sub: Subscriber = { endpoint: origin + path, keys: { p256dh: b64u(ua.getPublicKey()), auth: b64u(auth) }, received: [], answer: 201 };
      subs.set(path, { sub, ua, auth });
      return sub;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
