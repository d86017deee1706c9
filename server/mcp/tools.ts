/**
 * The MCP tools: what an assistant needs for an inventory. They call the modules' services (and,
 * for the reads only tools make, the modules' read functions) as the grant's actor, so row-level
 * security, the one write path and the grant's locations and scopes hold exactly as for a REST
 * call. Write tools exist only for a grant with svc:write.
 */
import { LOAN_DIRECTIONS, LOAN_STATES, LOANS_Q_MAX } from "../../shared/loans.js";
import { listLoans } from "../modules/loans/read.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { uuidSchema } from "../../shared/ids.js";
import { thingCreateBody, thingPatchBody } from "../../shared/things.js";
import { locationAccess } from "../access/location.js";
import { readOnlyRefusal } from "../access/may-write.js";
import { visibleLocations } from "../access/visible.js";
import { type Actor, withActor } from "../db/actor.js";
import type { Tx } from "../db/client.js";
import { AppError } from "../errors/classes.js";
import { mcpToolError } from "../errors/mcp.js";
import { zodToValidationError } from "../errors/zod.js";
import type { ServiceDeps } from "../modules/deps.js";
import { entityHistory } from "../modules/history/read.js";
import { openItems, reviewItem } from "../modules/inbox/service.js";
import { listPlaces } from "../modules/places/service.js";
import { detail, findThing, listThings } from "../modules/things/read.js";
import { createThing, listThingsIn, moveThing, updateThing } from "../modules/things/service.js";

/** The tools run on the modules' services, with the same database and undo window as the routes. */
export type ToolDeps = ServiceDeps;

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

/** The tools only a grant with svc:write is given (registered below, after the reads). */
export const WRITE_TOOLS: ReadonlySet<string> = new Set(["create_thing", "update_thing", "move_thing", "review_inbox_item"]);

/**
 * A read-only grant is not offered the write tools, but an assistant may still call one by name
 * (it saw it under another grant): the answer names the grant's scope, not "tool not found".
 */
export function readOnlyToolCall(actor: Actor, message: unknown): { jsonrpc: "2.0"; id: string | number; result: CallToolResult } | null {
  if (actor.canWrite || !message || typeof message !== "object" || Array.isArray(message)) return null;
  const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { name?: unknown } };
  if (method !== "tools/call" || (typeof id !== "string" && typeof id !== "number") || typeof params?.name !== "string") return null;
  if (!WRITE_TOOLS.has(params.name)) return null;
  return { jsonrpc: "2.0", id, result: mcpToolError(readOnlyRefusal(actor, `use ${params.name}`)!) };
}

/** The visible locations as the tools name them: id, name and the actor's role. */
const myLocations = async (tx: Tx) => (await visibleLocations(tx)).map(({ location, role }) => ({ id: location.id, name: location.name, role }));

export function mcpServer(actor: Actor, deps: ToolDeps): McpServer {
  const read = <T>(fn: (tx: Tx) => Promise<T>) => withActor(deps.db, actor, fn);
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
    (a) => run(() => listThingsIn(deps, actor, a.locationId, { q: a.q, limit: a.limit ?? 50 })),
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
    (a) => run(async () => ({ items: await listPlaces(deps, actor, a.locationId) })),
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
            const found = await listThings(tx, actor, loc.id, { q: a.q, limit: 10 });
            for (const t of found.items) {
              const d = await detail(tx, actor.userId, await findThing(tx, t.id));
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
    (a) => run(() => openItems(deps, actor, { locationId: a.locationId, limit: 50 })),
  );

  server.registerTool(
    "list_loans",
    {
      description: "Loans: things lent out or borrowed, newest first, with counts of open (out, in) and overdue loans.",
      inputSchema: {
        locationId: uuidSchema.optional(),
        direction: z.enum(LOAN_DIRECTIONS).optional(),
        state: z.enum(LOAN_STATES).optional(),
        q: z.string().max(LOANS_Q_MAX).optional(),
      },
      annotations: readOnly,
    },
    (a) => run(() => read((tx) => listLoans(tx, { ...a, limit: 50 }))),
  );

  if (!actor.canWrite) return server;

  // Writes answer the service's result; the txid is for devices following shapes, not assistants.
  server.registerTool(
    "create_thing",
    {
      description: "Create a thing in a location (optionally in a place or inside a container).",
      inputSchema: { locationId: uuidSchema, thing: z.record(z.string(), z.unknown()).describe("name, placeId or containerId, quantity, description, ...") },
    },
    (a) => run(async () => (await createThing(deps, actor, a.locationId, parse(thingCreateBody, a.thing))).result),
  );

  server.registerTool(
    "update_thing",
    {
      description:
        "Change fields of a thing. rowVersion, when given, is the version you last saw (get_thing): a stale one is refused; without it the fields apply to the thing as it is now.",
      inputSchema: { id: uuidSchema, rowVersion: z.number().int().min(1).optional(), patch: z.record(z.string(), z.unknown()) },
    },
    (a) =>
      run(
        async () =>
          (await updateThing(deps, actor, a.id, parse(thingPatchBody, { ...a.patch, ...(a.rowVersion === undefined ? {} : { rowVersion: a.rowVersion }) })))
            .result,
      ),
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
        const dest = a.placeId !== undefined ? { placeId: a.placeId } : { containerId: a.containerId };
        return (await moveThing(deps, actor, a.id, dest)).result;
      }),
  );

  server.registerTool(
    "review_inbox_item",
    {
      description: "Accept (a captured draft becomes an active thing) or dismiss an inbox item.",
      inputSchema: { id: uuidSchema, action: z.enum(["accept", "dismiss"]) },
    },
    (a) => run(async () => (await reviewItem(deps, actor, a.id, { verb: a.action })).result),
  );

  return server;
}
