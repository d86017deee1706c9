/**
 * The MCP tools: what an assistant needs for an inventory. Reads run as the grant's actor under
 * row-level security; writes go through the one write path (executeOne) with actor `mcp`, so the
 * grant's locations and scopes hold exactly as for any other caller. Write tools exist only for a
 * grant with svc:write.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, asc, eq, isNull } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { uuidSchema } from "../../shared/ids.js";
import { thingCreateBody, thingPatchBody } from "../../shared/things.js";
import { visibleLocations } from "../access/visible.js";
import type { Actor } from "../auth/actor.js";
import { executeOne } from "../modules/registry.js";
import { withActor } from "../db/actor.js";
import type { Db, Tx } from "../db/client.js";
import { inboxItems, places } from "../db/schema/index.js";
import { AppError, NotFoundError } from "../errors/classes.js";
import { mcpToolError } from "../errors/mcp.js";
import { zodToValidationError } from "../errors/zod.js";
import { entityHistory } from "../modules/history/read.js";
import { inboxOut, listInbox } from "../modules/inbox/read.js";
import { placeOut } from "../modules/places/routes.js";
import { locationAccess } from "../access/location.js";
import { detail, findThing, listThings } from "../modules/things/read.js";

export interface ToolDeps {
  db: Db;
  undoWindowMs: number;
}

const ok = (value: unknown): CallToolResult => ({ content: [{ type: "text", text: JSON.stringify(value) }] });

/** Our errors become tool errors the assistant can read; anything else stays a server error. */
async function run(fn: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return ok(await fn());
  } catch (err) {
    if (err instanceof AppError) return mcpToolError(err);
    throw err;
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw zodToValidationError(r.error);
  return r.data;
}

/** The visible locations as the tools name them: id, name and the actor's role. */
const myLocations = async (tx: Tx) => (await visibleLocations(tx)).map(({ location, role }) => ({ id: location.id, name: location.name, role }));

export function mcpServer(actor: Actor, deps: ToolDeps): McpServer {
  const { db } = deps;
  const opts = { undoWindowMs: deps.undoWindowMs };
  const read = <T>(fn: (tx: Tx) => Promise<T>) => withActor(db, actor, fn);
  const show = (tx: Tx, id: string) => findThing(tx, id).then((t) => detail(tx, actor.userId, t));
  const locationOfThing = (id: string) => read(async (tx) => (await findThing(tx, id)).locationId);
  const server = new McpServer({ name: "inventory", version: "1.0.0" });
  const readOnly = { readOnlyHint: true } as const;

  server.registerTool(
    "list_locations",
    { description: "The locations (households, workshops, ...) this connection may see, with your role in each.", annotations: readOnly },
    () => run(() => read(async (tx) => ({ items: await myLocations(tx) }))),
  );

  server.registerTool(
    "search_things",
    {
      description: "Search things in a location by name (or list them all without q).",
      inputSchema: { locationId: uuidSchema, q: z.string().max(200).optional(), limit: z.number().int().min(1).max(200).optional() },
      annotations: readOnly,
    },
    (a) =>
      run(() =>
        read(async (tx) => {
          await locationAccess(tx, a.locationId);
          return listThings(tx, a.locationId, { q: a.q, limit: a.limit ?? 50 });
        }),
      ),
  );

  server.registerTool(
    "get_thing",
    { description: "One thing with its path (place and containers) and its latest history.", inputSchema: { id: uuidSchema }, annotations: readOnly },
    (a) =>
      run(() =>
        read(async (tx) => {
          const thing = await findThing(tx, a.id);
          const reader = await locationAccess(tx, thing.locationId);
          return {
            thing: await detail(tx, actor.userId, thing),
            history: (await entityHistory(tx, { type: "thing", id: thing.id }, { limit: 10 }, reader)).items,
          };
        }),
      ),
  );

  server.registerTool(
    "list_places",
    { description: "Every place of a location (parentId builds the tree).", inputSchema: { locationId: uuidSchema }, annotations: readOnly },
    (a) =>
      run(() =>
        read(async (tx) => {
          await locationAccess(tx, a.locationId);
          const found = await tx
            .select()
            .from(places)
            .where(and(eq(places.locationId, a.locationId), isNull(places.deletedAt)))
            .orderBy(asc(places.name), asc(places.id));
          return { items: found.map(placeOut) };
        }),
      ),
  );

  server.registerTool(
    "where_is",
    {
      description: "Where is X? Finds things by name in every location and answers each with its path.",
      inputSchema: { q: z.string().trim().min(1).max(200) },
      annotations: readOnly,
    },
    (a) =>
      run(() =>
        read(async (tx) => {
          const hits = [];
          for (const loc of await myLocations(tx)) {
            const found = await listThings(tx, loc.id, { q: a.q, limit: 10 });
            for (const t of found.items) {
              const d = await show(tx, t.id);
              hits.push({ id: d.id, name: d.name, location: loc.name, path: d.path.map((p) => p.name) });
            }
          }
          return { items: hits.slice(0, 20) };
        }),
      ),
  );

  server.registerTool(
    "list_inbox",
    {
      description: "Open inbox items (captured drafts, sync problems), newest first.",
      inputSchema: { locationId: uuidSchema.optional() },
      annotations: readOnly,
    },
    (a) =>
      run(() =>
        read(async (tx) => {
          if (a.locationId) await locationAccess(tx, a.locationId);
          return listInbox(tx, { locationId: a.locationId, limit: 50 });
        }),
      ),
  );

  if (!actor.canWrite) return server;

  server.registerTool(
    "create_thing",
    {
      description: "Create a thing in a location (optionally in a place or inside a container).",
      inputSchema: { locationId: uuidSchema, thing: z.record(z.string(), z.unknown()).describe("name, placeId or containerId, quantity, description, ...") },
    },
    (a) =>
      run(async () => {
        const body = parse(thingCreateBody, a.thing);
        const id = body.id ?? uuidv7();
        const { result } = await executeOne(db, actor, { name: "thing.create", locationId: a.locationId, args: { ...body, id } }, opts, (tx) => show(tx, id));
        return result;
      }),
  );

  server.registerTool(
    "update_thing",
    {
      description: "Change fields of a thing; rowVersion is the version you last saw (get_thing).",
      inputSchema: { id: uuidSchema, rowVersion: z.number().int().min(1), patch: z.record(z.string(), z.unknown()) },
    },
    (a) =>
      run(async () => {
        const { rowVersion, ...patch } = parse(thingPatchBody, { ...a.patch, rowVersion: a.rowVersion });
        const locationId = await locationOfThing(a.id);
        const { result } = await executeOne(db, actor, { name: "thing.update", locationId, baseVersion: rowVersion, args: { id: a.id, patch } }, opts, (tx) =>
          show(tx, a.id),
        );
        return result;
      }),
  );

  server.registerTool(
    "move_thing",
    {
      description: "Move a thing to a place or into a container (give exactly one).",
      inputSchema: { id: uuidSchema, placeId: uuidSchema.optional(), containerId: uuidSchema.optional() },
    },
    (a) =>
      run(async () => {
        if ((a.placeId === undefined) === (a.containerId === undefined))
          throw zodToValidationError(new z.ZodError([{ code: "custom", path: ["placeId"], message: "give exactly one of placeId or containerId", input: a }]));
        const locationId = await locationOfThing(a.id);
        const dest = a.placeId !== undefined ? { placeId: a.placeId } : { containerId: a.containerId };
        const { result } = await executeOne(db, actor, { name: "thing.move", locationId, args: { id: a.id, ...dest } }, opts, (tx) => show(tx, a.id));
        return result;
      }),
  );

  server.registerTool(
    "review_inbox_item",
    {
      description: "Accept (a captured draft becomes an active thing) or dismiss an inbox item.",
      inputSchema: { id: uuidSchema, action: z.enum(["accept", "dismiss"]) },
    },
    (a) =>
      run(async () => {
        const item = async (tx: Tx) => {
          const [row] = await tx.select().from(inboxItems).where(eq(inboxItems.id, a.id));
          if (!row || row.deletedAt) throw new NotFoundError("inbox item");
          return row;
        };
        const locationId = await read(async (tx) => (await item(tx)).locationId);
        await executeOne(db, actor, { name: `inbox.${a.action}`, locationId, args: { id: a.id } }, opts);
        return read(async (tx) => ({ item: (await inboxOut(tx, [await item(tx)]))[0] }));
      }),
  );

  return server;
}
