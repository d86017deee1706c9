/**
 * Record versions over HTTP. A record's answer carries `ETag: "<rowVersion>"`; a write may send it
 * back as `If-Match` instead of (or beside) the body's `rowVersion`, and the one write path checks
 * it as it checks the body's (stale is 409 version_conflict). Neither is required: a write without
 * a version applies its fields to the current record, as a pushed op's fields do.
 */
import type { Request, Response } from "express";
import { z } from "zod";
import { ValidationError } from "../errors/classes.js";

/** The ETag of a record at `rowVersion`. Strong, since If-Match compares strongly (RFC 9110 13.1.1). */
export const recordEtag = (rowVersion: number): string => `"${rowVersion}"`;

const shapeOf = (schema: z.ZodType | undefined): Record<string, z.ZodType> | null => (schema instanceof z.ZodObject ? schema.shape : null);

/** True when a route's body (or answer) schema carries a record's `rowVersion`. */
export const carriesVersion = (schema: z.ZodType | undefined): boolean => shapeOf(schema)?.rowVersion !== undefined;

/**
 * The raw body with `If-Match` folded into its `rowVersion`, for a route whose body takes one.
 * `*` means "whatever version is current": no check. A malformed value, one on a route that
 * checks no version, or one that disagrees with the body's rowVersion is refused with 400.
 */
export function foldIfMatch(req: Request, bodySchema: z.ZodType | undefined, body: unknown): unknown {
  const header = req.get("if-match");
  if (header === undefined) return body;
  if (!carriesVersion(bodySchema))
    throw new ValidationError("This route does not check a record's version; leave the If-Match header out.", { header: "If-Match" });
  const value = header.trim();
  if (value === "*") return body;
  const m = /^"([1-9][0-9]{0,14})"$/.exec(value);
  if (!m)
    throw new ValidationError(`If-Match must be one ETag as a record's answer gave it (like "3") or *; got ${JSON.stringify(value.slice(0, 40))}.`, {
      header: "If-Match",
    });
  const version = Number(m[1]);
  if (body !== undefined && (typeof body !== "object" || body === null || Array.isArray(body))) return body;
  const raw = (body ?? {}) as Record<string, unknown>;
  if (raw.rowVersion !== undefined && raw.rowVersion !== version)
    throw new ValidationError(
      `If-Match says version ${version} but the body's rowVersion is ${JSON.stringify(raw.rowVersion)}; send one of them, or the same version in both.`,
      { header: "If-Match" },
    );
  return { ...raw, rowVersion: version };
}

/**
 * Sets the ETag of a record answer (one with a top-level rowVersion). The ETag names the version
 * only, not the bytes (an estimate or a photo URL may change under the same version), so such an
 * answer is never a 304 for If-None-Match: the header is dropped before express compares it.
 */
export function answerEtag(req: Request, res: Response, result: unknown): void {
  if (typeof result !== "object" || result === null || res.headersSent) return;
  const version = (result as { rowVersion?: unknown }).rowVersion;
  if (typeof version !== "number" || !Number.isInteger(version)) return;
  res.setHeader("ETag", recordEtag(version));
  delete req.headers["if-none-match"];
}

/** OpenAPI: the If-Match parameter of a versioned write and the ETag header of a record answer. */
export const ifMatchParameter = {
  name: "If-Match",
  in: "header",
  required: false,
  description:
    'The ETag of the record as you saw it (like "3"), instead of the body\'s rowVersion; stale is 409 version_conflict. Leave both out to change the current record.',
  schema: { type: "string" },
};
export const etagHeader = {
  description: 'The record\'s version as an ETag (`"<rowVersion>"`), for If-Match.',
  required: true,
  schema: { type: "string" },
};
