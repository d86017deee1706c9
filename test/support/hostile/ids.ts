/**
 * The kinds of id the routes take; each is made beside its module (kinds/), as its manifest names it.
 */

/** Every kind of row a route names by id. A route naming an id of another kind fails the suites until it is added here, with its maker in kinds/. */
export const ID_KINDS = [
  "location",
  "place",
  "placeKind",
  "thing",
  "container",
  "type",
  "parentType",
  "groupType",
  "typeField",
  "brand",
  "tag",
  "file",
  "inboxItem",
  "batch",
  "historyEvent",
  "token",
  "grant",
  "session",
  "memberUser",
  "managedUser",
  "opId",
  "template",
  /** Not an id but a key: the secret field a reveal names (`/secrets/{fieldKey}`). */
  "fieldKey",
  "labelSheet",
  /** Not an id but a short code (`/codes/{code}`): the tenant's thing's. */
  "code",
  "meter",
  "reading",
  "pushSubscription",
  "extraction",
  "loan",
  "contact",
  "move",
  /** A box row of a move: routes name boxes by move and container; only a create names its own id. */
  "moveBox",
  "webhook",
  "report",
  "shareLink",
  "export",
  "invite",
] as const;
export type IdKind = (typeof ID_KINDS)[number];

/**
 * An id a request carries: the kind of row it names, and whether the request makes that row with
 * this id (a device-made id: the row must not exist yet) instead of naming an existing one.
 */
export interface IdRef {
  kind: IdKind;
  fresh: boolean;
}

/** The kind of row a path segment's parameter names: `/things/{id}` names a thing. */
const PATH_KINDS: Record<string, IdKind> = {
  locations: "location",
  places: "place",
  things: "thing",
  history: "historyEvent",
  inbox: "inboxItem",
  files: "file",
  // `/things/{id}/photos/{fileId}`: a thing's photo is named by its file.
  photos: "file",
  tokens: "token",
  grants: "grant",
  sessions: "session",
  members: "memberUser",
  "managed-accounts": "managedUser",
  templates: "template",
  types: "type",
  "type-fields": "typeField",
  "place-kinds": "placeKind",
  secrets: "fieldKey",
  "label-sheets": "labelSheet",
  codes: "code",
  meters: "meter",
  "push-subscriptions": "pushSubscription",
  loans: "loan",
  moves: "move",
  // `/moves/{id}/boxes/{containerId}`: a box is named by its container.
  boxes: "container",
  webhooks: "webhook",
  reports: "report",
  "share-links": "shareLink",
  exports: "export",
  invites: "invite",
};

/** The kind of row a query or body field names, by its name. */
const FIELD_KINDS: Record<string, IdKind> = {
  locationId: "location",
  locationIds: "location",
  placeId: "place",
  parentId: "place",
  kindId: "placeKind",
  containerId: "container",
  into: "thing",
  typeId: "type",
  groupIds: "groupType",
  placeKindId: "placeKind",
  brandId: "brand",
  tagIds: "tag",
  photoFileIds: "file",
  fileIds: "file",
  batchId: "batch",
  thingId: "thing",
  templateId: "template",
  tagId: "tag",
  seen: "thing",
  notHere: "thing",
  movedIn: "thing",
  meterId: "meter",
  fileId: "file",
  extractionId: "extraction",
  userId: "memberUser",
  contactId: "contact",
  personId: "contact",
  toLocationId: "location",
  moveId: "move",
  placeIds: "place",
  typeIds: "type",
  thingIds: "thing",
  // A share link's target: the fuzzers send the example scope "thing".
  targetId: "thing",
};

/** What a create route makes, for the `id` it may be given (a device-made id). */
const CREATES: [RegExp, IdKind][] = [
  [/^POST \/api\/v1\/locations$/, "location"],
  [/^POST \/api\/v1\/locations\/\{id\}\/things$/, "thing"],
  [/^POST \/api\/v1\/locations\/\{id\}\/places$/, "place"],
  [/^POST \/api\/v1\/files$/, "file"],
  [/^POST \/api\/v1\/things\/\{id\}\/save-as-template$/, "template"],
  [/^POST \/api\/v1\/locations\/\{id\}\/types$/, "type"],
  [/^POST \/api\/v1\/locations\/\{id\}\/place-kinds$/, "placeKind"],
  [/^POST \/api\/v1\/locations\/\{id\}\/brands$/, "brand"],
  [/^POST \/api\/v1\/locations\/\{id\}\/tags$/, "tag"],
  [/^POST \/api\/v1\/(types|place-kinds)\/\{id\}\/fields$/, "typeField"],
  [/^POST \/api\/v1\/things\/\{id\}\/box-checks$/, "opId"],
  [/^POST \/api\/v1\/things\/\{id\}\/meters$/, "meter"],
  [/^POST \/api\/v1\/meters\/\{id\}\/readings$/, "reading"],
  [/^POST \/api\/v1\/things\/\{id\}\/loans$/, "loan"],
  [/^POST \/api\/v1\/locations\/\{id\}\/moves$/, "move"],
  [/^POST \/api\/v1\/moves\/\{id\}\/boxes$/, "moveBox"],
];

/** A body's `id` that names an existing row rather than one the request makes. */
const NAMES: [RegExp, IdKind][] = [
  [/^POST \/api\/v1\/codes\/\{code\}\/claim$/, "thing"],
  // A loan's return place (returnPlace {type, id}); the example's type is "place".
  [/^POST \/api\/v1\/loans\/\{id\}\/return$/, "place"],
  // Pushed ops: an `id` nested in args (the op's own target is read apart) is loan.return's returnPlace.
  [/^POST \/api\/v1\/sync\/push$/, "place"],
];

/** What an MCP tool's `id` argument names (server/mcp/tools.ts). */
export const MCP_TOOL_TARGETS: Record<string, IdKind> = { get_thing: "thing", update_thing: "thing", move_thing: "thing", review_inbox_item: "inboxItem" };

/** What each pushed op's `args.id` names (sync/ops.ts), fresh for the ops that create. */
export function opTargetKind(opName: string): IdRef | undefined {
  const [domain = "", verb] = opName.split(".");
  const byDomain: Record<string, IdKind> = {
    thing: "thing",
    place: "place",
    inbox: "inboxItem",
    type: "type",
    type_field: "typeField",
    place_kind: "placeKind",
    brand: "brand",
    tag: "tag",
    template: "template",
    meter: "meter",
    reading: "reading",
    boxcheck: "opId",
    // receipt.capture makes a purchase, a row no route names by id.
    receipt: "opId",
    // code.claim names the thing (or place) the label goes on.
    code: "thing",
    loan: "loan",
    move: "move",
    box: "moveBox",
  };
  const kind: IdKind | undefined = byDomain[domain];
  return kind && { kind, fresh: verb === "create" || verb === "capture" || verb === "record" || verb === "add" };
}

/**
 * The kind of id a route's parameter holds, or undefined when there is no rule for it (the suites
 * then fail: a new kind must be added on purpose). `where` is path, query or body; `name` the
 * parameter's or field's name (for a path parameter, the segment before it decides).
 */
export function idKindOf(method: string, path: string, where: "path" | "query" | "body", name: string): IdRef | undefined {
  const route = `${method.toUpperCase()} ${path}`;
  if (where === "path") {
    const segments = path.split("/");
    const i = segments.indexOf(`{${name}}`);
    const kind = PATH_KINDS[segments[i - 1] ?? ""];
    return kind && { kind, fresh: false };
  }
  if (name === "id") {
    const named = NAMES.find(([re]) => re.test(route))?.[1];
    if (named) return { kind: named, fresh: false };
    const made = CREATES.find(([re]) => re.test(route))?.[1];
    return made && { kind: made, fresh: true };
  }
  // The new thing a loan's split makes: a device-made id that must be free (B's own taken one: its box, not the thing lent).
  if (name === "splitThingId") return { kind: "container", fresh: true };
  // A type's parent is a type (elsewhere parentId names a place).
  if (name === "parentId" && /\/types(\/|$)/.test(path)) return { kind: "parentType", fresh: false };
  const kind = FIELD_KINDS[name];
  return kind && { kind, fresh: false };
}
