/** Every command the write path knows, by name. Sync ops and REST routes both resolve here. */
import { fileCreate } from "../modules/files/commands.js";
import { historyUndo } from "../modules/history/undo.js";
import { inboxAccept, inboxDismiss, inboxMerge } from "../modules/inbox/commands.js";
import { locationCreate, locationUpdate } from "../modules/locations/commands.js";
import { memberRemove, memberUpdate } from "../modules/members/commands.js";
import { placeCreate, placeUpdate } from "../modules/places/commands.js";
import { thingCapture } from "../modules/things/capture.js";
import { thingCreate, thingDelete, thingMove, thingUpdate } from "../modules/things/commands.js";
import type { CommandDef } from "./types.js";

const all = [
  locationCreate,
  locationUpdate,
  placeCreate,
  placeUpdate,
  thingCreate,
  thingUpdate,
  thingMove,
  thingDelete,
  thingCapture,
  historyUndo,
  memberUpdate,
  memberRemove,
  inboxAccept,
  inboxDismiss,
  inboxMerge,
  fileCreate,
] as unknown as CommandDef<unknown>[];

export const commandRegistry: ReadonlyMap<string, CommandDef<unknown>> = new Map(all.map((c) => [c.name, c]));
