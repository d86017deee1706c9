/**
 * The routes a personal token may reach (spec "Personal tokens" rule 5). Deny by default: anything
 * not listed here (sign-in and the auth mount, /me, tokens, members, invites, managed accounts,
 * location settings, sync, files upload, and everything added later) answers 403 to a token.
 * Entries are checked against the route table in test/db/tokens/tokens.test.ts, so a renamed
 * route cannot silently fall off or onto this list.
 */
export const TOKEN_ROUTES = [
  "GET /api/v1/locations",
  "GET /api/v1/locations/:id",
  "GET /api/v1/locations/:id/places",
  "POST /api/v1/locations/:id/places",
  "PATCH /api/v1/places/:id",
  "DELETE /api/v1/places/:id",
  "GET /api/v1/locations/:id/things",
  "POST /api/v1/locations/:id/things",
  "GET /api/v1/things/:id",
  "PATCH /api/v1/things/:id",
  "DELETE /api/v1/things/:id",
  "POST /api/v1/things/:id/move",
  "GET /api/v1/things/:id/history",
  "POST /api/v1/history/:eventId/undo",
  "GET /api/v1/inbox",
  // Registries: read (a script needs the type and field ids to fill values); writing them is an
  // admin's job and never open to a token.
  "GET /api/v1/locations/:id/types",
  "GET /api/v1/locations/:id/place-kinds",
  "GET /api/v1/locations/:id/brands",
  "GET /api/v1/locations/:id/tags",
  "POST /api/v1/inbox/:id/accept",
  "POST /api/v1/inbox/:id/dismiss",
  "GET /api/v1/templates",
  // A script that reads labels (a barcode scanner at a desk) resolves them like the app does.
  "GET /api/v1/codes/:code",
  "POST /api/v1/scan/resolve",
] as const;

/** Never open to a token, whatever the list above says (a guard against a careless edit). */
const NEVER =
  /^\/api\/v1\/(auth|me|tokens|members|invites|export|exports|admin|assistant|ai|secrets|webhooks)(\/|$)|\/(members|invites|managed-accounts|secrets|webhooks|ai-settings|export)(\/|$)/i;

interface Entry {
  method: string;
  pattern: RegExp;
}

/** Express 5 matching for our plain paths: case-insensitive, one segment per parameter, optional trailing slash. */
function compile(route: string): Entry {
  const [method = "", path = ""] = route.split(" ");
  const body = path
    .split("/")
    .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return { method, pattern: new RegExp(`^${body}/?$`, "i") };
}

const ENTRIES = TOKEN_ROUTES.map(compile);

export function tokenMayReach(method: string, path: string): boolean {
  if (NEVER.test(path)) return false;
  const m = method === "HEAD" ? "GET" : method;
  return ENTRIES.some((e) => e.method === m && e.pattern.test(path));
}

/** For marking the route definitions (OpenAPI shows the bearer scheme on exactly these). */
export function isTokenRoute(method: string, path: string): boolean {
  return (TOKEN_ROUTES as readonly string[]).includes(`${method.toUpperCase()} ${path}`);
}
