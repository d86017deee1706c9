/** The named shapes a device can subscribe to (sync/SPEC.md SH1). */
export const SHAPE_NAMES = [
  "locations",
  "memberships",
  "places",
  "place_kinds",
  "types",
  "type_fields",
  "things",
  "brands",
  "tags",
  "templates",
  "inbox",
  "meters",
  "readings",
  "box_checks",
  "codes",
  "moves",
  "move_boxes",
  "contacts",
  "loans",
] as const;
export type ShapeName = (typeof SHAPE_NAMES)[number];
export const isShapeName = (name: string): name is ShapeName => (SHAPE_NAMES as readonly string[]).includes(name);

/** Query parameters a client may send; anything that chooses data (table, where...) is refused. */
export const PROTOCOL_PARAMS = [
  "offset",
  "handle",
  "live",
  "live_sse",
  "experimental_live_sse",
  "cursor",
  "log",
  "replica",
  "expired_handle",
  "cache-buster",
] as const;
export const FORBIDDEN_PARAMS = ["table", "where", "columns", "params"] as const;
