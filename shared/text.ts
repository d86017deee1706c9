/**
 * Text a database can keep. PostgreSQL refuses U+0000 in text and jsonb, and a lone UTF-16
 * surrogate (U+D800-U+DFFF without its pair) is not Unicode at all: jsonb refuses it and a text
 * column would silently get U+FFFD. Every value a person or device sends is checked against this
 * one rule, on the REST edge (server/http/route.ts) and for every command's args (the executor),
 * so a bad string is a clear 400 or a dropped op, never a database error.
 */

/** NUL, or a surrogate half without its other half. */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const ILL_FORMED = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ILL_FORMED_ALL = new RegExp(ILL_FORMED.source, "g");

export const ILL_FORMED_TEXT_MESSAGE = "must not contain NUL (U+0000) or unpaired surrogate characters";

export const isWellFormedText = (s: string): boolean => !ILL_FORMED.test(s);

/** The same text with each NUL or unpaired surrogate replaced by U+FFFD, for keeping what was sent. */
export const wellFormedText = (s: string): string => (ILL_FORMED.test(s) ? s.replace(ILL_FORMED_ALL, "\uFFFD") : s);

/**
 * The path of the first string or object key in `value` that is not well-formed text, or null.
 * Iterative, and stops descending past `maxDepth` (deeper values are the depth rules' business).
 */
export function findIllFormedText(value: unknown, maxDepth = 64): (string | number)[] | null {
  const stack: { v: unknown; path: (string | number)[] }[] = [{ v: value, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === "string") {
      if (!isWellFormedText(v)) return path;
    } else if (v !== null && typeof v === "object" && path.length < maxDepth) {
      if (Array.isArray(v)) v.forEach((item, i) => stack.push({ v: item, path: [...path, i] }));
      else
        for (const [k, item] of Object.entries(v)) {
          if (!isWellFormedText(k)) return [...path, k];
          stack.push({ v: item, path: [...path, k] });
        }
    }
  }
  return null;
}

/** How deeply `value` nests (a scalar is 0, `[]` is 1), counting no further than `limit` + 1. */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    const d = depth + 1;
    if (d > deepest) deepest = d;
    if (d > limit) return d;
    for (const item of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: item, depth: d });
  }
  return deepest;
}

/**
 * A copy of `value` with every ill-formed string and key made well-formed, for storing what was
 * sent (a dropped op) where the database needs well-formed text. Values nested past `maxDepth`
 * are kept as their JSON text, so the copy is always storable.
 */
export function toWellFormed(value: unknown, maxDepth = 32, depth = 0): unknown {
  if (typeof value === "string") return wellFormedText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= maxDepth) return wellFormedText(safeStringify(value));
  if (Array.isArray(value)) return value.map((v) => toWellFormed(v, maxDepth, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[wellFormedText(k)] = toWellFormed(v, maxDepth, depth + 1);
  return out;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "[too deeply nested to keep]";
  }
}
