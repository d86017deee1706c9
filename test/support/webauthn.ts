/**
 * A software WebAuthn authenticator for tests: an ES256 key pair from node:crypto, attestation
 * objects and assertions built by hand (CBOR via @levischuck/tiny-cbor), exactly as a browser
 * would hand them to the page. `userVerified` decides the UV flag (PIN or biometric done).
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { encodeCBOR, type CBORType } from "@levischuck/tiny-cbor";

const b64url = (b: Uint8Array | Buffer) => Buffer.from(b).toString("base64url");
const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftAuthenticator {
  credentialId: Buffer;
  /** Answer to POST /passkey/register/options, as navigator.credentials.create() would. */
  register(options: { challenge: string; user: { id: string } }, opts?: { userVerified?: boolean; origin?: string; rpId?: string }): unknown;
  /** Answer to POST /passkey/authenticate/options, as navigator.credentials.get() would. */
  authenticate(options: { challenge: string }, opts?: { userVerified?: boolean; origin?: string; rpId?: string }): unknown;
  signCount: number;
}

export function softAuthenticator(defaults: { origin: string; rpId: string }): SoftAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" }) as { x: string; y: string };
  const cose = encodeCBOR(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x, "base64url")],
      [-3, Buffer.from(jwk.y, "base64url")],
    ]),
  );
  const credentialId = randomBytes(32);
  let userHandle = "";

  const clientData = (type: string, challenge: string, origin: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  const authData = (rpId: string, flags: number, count: number, attested?: Buffer) => {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(count);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  };

  const self: SoftAuthenticator = {
    credentialId,
    signCount: 0,
    register(options, opts = {}) {
      const origin = opts.origin ?? defaults.origin;
      const rpId = opts.rpId ?? defaults.rpId;
      userHandle = options.user.id;
      const idLen = Buffer.alloc(2);
      idLen.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLen, credentialId, Buffer.from(cose)]);
      const flags = FLAG_UP | FLAG_AT | (opts.userVerified === false ? 0 : FLAG_UV);
      const attestationObject = encodeCBOR(
        new Map<string, CBORType>([
          ["fmt", "none"],
          ["attStmt", new Map<string, CBORType>()],
          ["authData", authData(rpId, flags, 0, attested)],
        ]),
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientData("webauthn.create", options.challenge, origin)),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
    authenticate(options, opts = {}) {
      const origin = opts.origin ?? defaults.origin;
      const rpId = opts.rpId ?? defaults.rpId;
      self.signCount += 1;
      const data = authData(rpId, FLAG_UP | (opts.userVerified ? FLAG_UV : 0), self.signCount);
      const cdj = clientData("webauthn.get", options.challenge, origin);
      const signature = sign("sha256", Buffer.concat([data, sha256(cdj)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: "public-key",
        response: {
          clientDataJSON: b64url(cdj),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
  };
  return self;
}
