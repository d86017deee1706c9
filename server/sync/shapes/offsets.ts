/**
 * Shape offsets (sync/SPEC.md SH3, SH9), all in Electric's `<tx>_<op>` grammar so that any Electric
 * client, or a real Electric behind SH8, reads them as offsets:
 *
 * - `<seq>_0`: after position `seq` of the change log (`sync_log`).
 * - `<head>_<n>`, n >= 1: inside a paged snapshot read at log position `head`; the next page holds
 *   the rows whose id is greater than the uuid whose 128-bit value is `n - 1`. Postgres orders uuids
 *   as big-endian 128-bit numbers, so a snapshot's offsets grow page after page.
 * - `<head>_inf`: the snapshot read at `head` is complete; what follows is the log after `head`
 *   (changes made while the pages were read, replayed as full rows).
 *
 * In Electric's order `head_0 < head_<n> < head_inf`, and a page offset can never be taken for a
 * log offset (its op part is never 0). Nothing is kept per snapshot on the server.
 */
import { ValidationError } from "../../errors/classes.js";

export type ShapeOffset =
  /** `-1`: the first page of a new snapshot. */
  | { kind: "start" }
  /** `now`: no history, an immediate up-to-date. */
  | { kind: "now" }
  /** The log after `after` (`<seq>_0`, `<seq>_inf`). */
  | { kind: "log"; after: number }
  /** The snapshot read at `head`, from the row after `afterId`. */
  | { kind: "page"; head: number; afterId: string };

const UUID_MAX = (1n << 128n) - 1n;

export function uuidToBigInt(id: string): bigint {
  return BigInt(`0x${id.replace(/-/g, "")}`);
}

export function bigIntToUuid(n: bigint): string {
  const hex = n.toString(16).padStart(32, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The offset after a snapshot page whose last row is `lastId`. */
export const pageOffset = (head: number, lastId: string) => `${head}_${uuidToBigInt(lastId) + 1n}`;

/** The offset after the last page of the snapshot read at `head`. */
export const snapshotEndOffset = (head: number) => `${head}_inf`;

export const logOffset = (seq: number) => `${seq}_0`;

/** Reads an `offset` query parameter; 400 for anything that is not one of ours. */
export function parseOffset(offset: string): ShapeOffset {
  if (offset === "-1") return { kind: "start" };
  if (offset === "now") return { kind: "now" };
  const m = /^(\d{1,18})_(\d{1,40}|inf)$/.exec(offset);
  if (!m) throw new ValidationError("offset: must be -1, now or an electric-offset this server sent.");
  const seq = Number(m[1]);
  if (m[2] === "inf") return { kind: "log", after: seq };
  const op = BigInt(m[2]!);
  if (op === 0n) return { kind: "log", after: seq };
  if (op - 1n > UUID_MAX) throw new ValidationError("offset: not an electric-offset this server sent; start again from -1.");
  return { kind: "page", head: seq, afterId: bigIntToUuid(op - 1n) };
}
