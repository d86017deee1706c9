/**
 * The same ids in other letter cases, for the hostile suites: the spec's uuid pattern takes upper
 * and lower case, so a request naming a row as `01A2…` must be answered as one naming `01a2…` is.
 * Helpers to rewrite every uuid a request carries, and to compare what two answers say about ids.
 */
import { UUID_PATTERN } from "../../shared/ids.js";

export const ID_CASES = ["upper", "mixed"] as const;
export type IdCase = (typeof ID_CASES)[number];

/** `id` in the given case; "mixed" alternates the case of its letters, starting upper. */
export function inCase(id: string, how: IdCase): string {
  if (how === "upper") return id.toUpperCase();
  let n = 0;
  return id.replace(/[a-f]/gi, (c) => (n++ % 2 ? c.toLowerCase() : c.toUpperCase()));
}

const isId = (v: unknown): v is string => typeof v === "string" && UUID_PATTERN.test(v);

/** A copy of `value` with every string that is a uuid (at any depth) in the given case. */
export function recase<T>(value: T, how: IdCase): T {
  if (isId(value)) return inCase(value, how) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => recase(v, how)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, recase(v, how)])) as T;
  return value;
}

/** Whether `value` holds a uuid anywhere. */
export function holdsId(value: unknown): boolean {
  if (isId(value)) return true;
  if (Array.isArray(value)) return value.some(holdsId);
  if (value && typeof value === "object") return Object.values(value).some(holdsId);
  return false;
}

/** Where each uuid of a request is, by its lower-case form: `path.id`, `body.ops.0.args.id`. */
export function idPlaces(value: unknown, at = ""): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, where: string) => {
    if (isId(v)) out.set(v.toLowerCase(), out.get(v.toLowerCase()) ?? where);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${where}.${i}`));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, where ? `${where}.${k}` : k);
  };
  walk(value, at);
  return out;
}

/**
 * The uuids of an answer, each by the place of the request it came from (or "another id"): two
 * answers that name the same rows of their requests in the same places give the same map.
 */
export function idsByPlace(answer: unknown, sent: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (v: unknown, where: string) => {
    if (isId(v)) out[where] = sent.get(v.toLowerCase()) ?? "another id";
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${where}[${i}]`));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, `${where}.${k}`);
  };
  walk(answer, "answer");
  return out;
}

/** The uuids written with an upper-case letter in a text: ids the server answers are lower case. */
export const upperCaseIds = (text: string): string[] =>
  [...text.matchAll(/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g)].map((m) => m[0]).filter((id) => /[A-F]/.test(id));
