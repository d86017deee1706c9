/**
 * Which IP addresses an outgoing fetch of a client metadata document may connect to: public
 * unicast only. IPv6 is allowed only inside global unicast 2000::/3 minus its special blocks; every
 * IPv6 form that embeds an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) is
 * judged by, or refused with, the address it carries, so `[::ffff:127.0.0.1]` is loopback.
 */
import { BlockList, isIPv4, isIPv6 } from "node:net";

const V4_SPECIAL: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.31.196.0", 24],
  ["192.52.193.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["192.175.48.0", 24],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const V4_LOOPBACK: [string, number] = ["127.0.0.0", 8];

const v4Special = new BlockList();
for (const [net, bits] of V4_SPECIAL) v4Special.addSubnet(net, bits, "ipv4");
const v4Loopback = new BlockList();
v4Loopback.addSubnet(...V4_LOOPBACK, "ipv4");

const v6GlobalUnicast = new BlockList();
v6GlobalUnicast.addSubnet("2000::", 3, "ipv6");
/** Special blocks inside 2000::/3: IETF protocol assignments (Teredo among them), documentation, 6to4. */
const v6SpecialInGlobal = new BlockList();
for (const [net, bits] of [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
] as const)
  v6SpecialInGlobal.addSubnet(net, bits, "ipv6");

/** The 16 bytes of an IPv6 address in any textual form, a trailing dotted quad included. */
function v6Bytes(address: string): number[] | null {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return null;
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string | undefined) => (s ? s.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : []);
  const left = groups(halves[0]);
  const right = groups(halves[1]);
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const words = [...left, ...Array<number>(missing).fill(0), ...right];
  if (words.some((w) => Number.isNaN(w))) return null;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const v4Of = (b: number[], at: number) => b.slice(at, at + 4).join(".");

export interface AddressPolicy {
  /** Tests only (SVC_OAUTH_ALLOW_LOOPBACK_CLIENTS): loopback addresses count as public. */
  allowLoopback: boolean;
}

function v4Allowed(address: string, policy: AddressPolicy): boolean {
  if (policy.allowLoopback && v4Loopback.check(address, "ipv4")) return true;
  return !v4Special.check(address, "ipv4") && address !== "255.255.255.255";
}

/** True when a connection to `address` (as DNS or a URL gave it) is allowed. */
export function isPublicAddress(address: string, policy: AddressPolicy): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  if (isIPv4(bare)) return v4Allowed(bare, policy);
  if (!isIPv6(bare) || bare.includes("%")) return false;
  const b = v6Bytes(bare.toLowerCase());
  if (!b) return false;
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  // IPv4-mapped ::ffff:0:0/96 and IPv4-compatible ::/96: the IPv4 address decides.
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4Allowed(v4Of(b, 12), policy);
  if (zeros(0, 12)) {
    if (policy.allowLoopback && zeros(12, 15) && b[15] === 1) return true; // ::1
    return false; // ::, ::1 and the deprecated IPv4-compatible form
  }
  // NAT64 64:ff9b::/96 reaches the IPv4 address it carries.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4Allowed(v4Of(b, 12), policy);
  const normal = bare.toLowerCase();
  return v6GlobalUnicast.check(normal, "ipv6") && !v6SpecialInGlobal.check(normal, "ipv6");
}
