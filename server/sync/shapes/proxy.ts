/**
 * Proxy mode (sync/SPEC.md SH8): with SVC_ELECTRIC_URL the shape route forwards to a real Electric.
 * Only the protocol's own parameters pass through from the client; table, where, columns and the
 * secret are set here from the actor, so a client can never widen what it syncs.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Request, Response } from "express";
import { PROTOCOL_PARAMS } from "../../../sync/shapes.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { UnavailableError } from "../../errors/classes.js";
import type { ShapeDef } from "./definitions.js";
import { shapeScope } from "./scope.js";
import { readableAccounts, readableLocations } from "../../access/readable.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const inList = (ids: string[]) =>
  ids.length
    ? ids
        .filter((id) => UUID.test(id))
        .map((id) => `'${id}'`)
        .join(",")
    : "NULL";

/** The WHERE Electric applies for this actor, built from validated uuids only. */
export function upstreamWhere(shape: ShapeDef, actor: Actor, scope: string[]): string {
  const parts = [`"${shape.locationColumn}" IN (${inList(scope)})`];
  if (shape.name === "memberships") parts.push(`"user_id" = '${UUID.test(actor.userId) ? actor.userId : "00000000-0000-0000-0000-000000000000"}'`);
  parts.push(`"deleted_at" IS NULL`);
  if (shape.name === "inbox") parts.push(`"status" = 'open'`);
  if (shape.name === "codes") parts.push(`"sheet_id" IS NOT NULL`);
  return parts.join(" AND ");
}

export async function proxyShape(db: Db, config: Config, actor: Actor, shape: ShapeDef, req: Request, res: Response): Promise<void> {
  // A registry shape is scoped by the owner accounts of the readable locations, the others by the locations.
  const { scope, moneyHidden } = await withActor(db, actor, async (tx) => ({
    scope: shape.locationColumn === "account_id" ? await readableAccounts(tx) : await readableLocations(tx),
    moneyHidden: (await shapeScope(tx, actor, shape)).moneyHidden,
  }));
  const url = new URL("/v1/shape", config.electricUrl);
  for (const p of PROTOCOL_PARAMS) {
    const v = req.query[p];
    if (typeof v === "string") url.searchParams.set(p, v);
  }
  url.searchParams.set("table", shape.table);
  url.searchParams.set("where", upstreamWhere(shape, actor, scope));
  // Electric cannot drop keys inside a jsonb column, so where money must stay hidden the custom
  // fields of things and places (and what the AI read for them), and the payload of templates (which holds such fields), are left out
  // altogether in proxy mode.
  const withMoney = (c: { name: string }) =>
    ((shape.name === "things" || shape.name === "places") && c.name === "fields") ||
    (shape.name === "things" && c.name === "field_status") ||
    (shape.name === "templates" && c.name === "payload");
  const columns = shape.columns.filter((c) => !(withMoney(c) && moneyHidden.length));
  url.searchParams.set("columns", columns.map((c) => `"${c.name}"`).join(","));
  if (config.electricSecret) url.searchParams.set("secret", config.electricSecret);
  let upstream: globalThis.Response;
  try {
    const ac = new AbortController();
    res.once("close", () => ac.abort());
    upstream = await fetch(url, { signal: ac.signal });
  } catch {
    throw new UnavailableError(5, "The sync service is unreachable; try again shortly.");
  }
  res.status(upstream.status);
  upstream.headers.forEach((value, key) => {
    // fetch already decoded the body; length and encoding no longer apply.
    if (!["content-encoding", "content-length", "transfer-encoding", "connection"].includes(key)) res.setHeader(key, value);
  });
  res.setHeader("vary", "Cookie, Authorization");
  res.flushHeaders();
  if (!upstream.body) return void res.end();
  // Streamed (live requests may be long); resolved only when the whole answer has gone out.
  await pipeline(Readable.fromWeb(upstream.body as import("node:stream/web").ReadableStream), res).catch(() => undefined);
}
