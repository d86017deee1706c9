/**
 * The ops a device can push: one discriminated union by `name`, each with the zod schema of its
 * args (the same schemas the REST routes use, from shared/).
 */
import { z } from "zod";
import { boxCheckRecordArgs } from "../shared/box-checks.js";
import { codeClaimArgs } from "../shared/codes.js";
import { fieldConfirmArgs, suggestionAcceptArgs } from "../shared/extractions.js";
import { inboxAcceptArgs, inboxActArgs, inboxMergeArgs } from "../shared/inbox-actions.js";
import { meterCreateArgs, meterDeleteArgs, meterUpdateArgs, readingCaptureArgs } from "../shared/meters.js";
import { receiptCaptureArgs } from "../shared/receipts.js";
import { boxAddArgs, boxRemoveArgs, boxScanArgs, boxUpdateArgs, moveCreateArgs, moveUpdateArgs } from "../shared/moves.js";
import { placeCreateArgs, placeDeleteArgs, placeUpdateArgs } from "../shared/places.js";
import {
  brandCreateArgs,
  placeKindCreateArgs,
  placeKindUpdateArgs,
  tagCreateArgs,
  typeCreateArgs,
  typeFieldArchiveArgs,
  typeFieldCreateArgs,
  typeFieldUpdateArgs,
  typeUpdateArgs,
} from "../shared/registries.js";
import { templateCreateArgs, templateDeleteArgs, templateUpdateArgs } from "../shared/templates.js";
import { loanCreateArgs, loanReturnArgs, loanUpdateArgs } from "../shared/loans.js";
import { thingPhotoAddArgs, thingPhotoArgs } from "../shared/thing-photos.js";
import { thingCaptureArgs, thingCreateArgs, thingDeleteArgs, thingMoveArgs, thingUpdateArgs } from "../shared/things.js";

export const opArgs = {
  "place.create": placeCreateArgs,
  "place.update": placeUpdateArgs,
  "place.delete": placeDeleteArgs,
  "thing.create": thingCreateArgs,
  "thing.update": thingUpdateArgs,
  "thing.move": thingMoveArgs,
  "thing.delete": thingDeleteArgs,
  "thing.capture": thingCaptureArgs,
  // A thing's photos (server/modules/things/photos.ts): added, removed and the cover chosen offline too.
  "thing.photo.add": thingPhotoAddArgs,
  "thing.photo.remove": thingPhotoArgs,
  "thing.photo.cover": thingPhotoArgs,
  // Answers to AI suggestions (server/modules/extractions/): a reviewer on a phone, offline too.
  "thing.suggestion.accept": suggestionAcceptArgs,
  "thing.field.confirm": fieldConfirmArgs,
  // Reviewers clear the inbox offline too.
  "inbox.accept": inboxAcceptArgs,
  "inbox.dismiss": inboxActArgs,
  "inbox.merge": inboxMergeArgs,
  // Registries of the owner account, made through one of its locations (admins; server/modules/registries/).
  "type.create": typeCreateArgs,
  "type.update": typeUpdateArgs,
  "type_field.create": typeFieldCreateArgs,
  "type_field.update": typeFieldUpdateArgs,
  "type_field.archive": typeFieldArchiveArgs,
  "place_kind.create": placeKindCreateArgs,
  "place_kind.update": placeKindUpdateArgs,
  "brand.create": brandCreateArgs,
  "tag.create": tagCreateArgs,
  // Templates: admins save and manage them offline too (registries of the owner account).
  "template.create": templateCreateArgs,
  "template.update": templateUpdateArgs,
  "template.delete": templateDeleteArgs,
  // Field work (server/modules/meters/, box-checks/, codes/): captured with no signal, pushed later.
  "meter.create": meterCreateArgs,
  "meter.update": meterUpdateArgs,
  "meter.delete": meterDeleteArgs,
  "reading.capture": readingCaptureArgs,
  "boxcheck.record": boxCheckRecordArgs,
  "code.claim": codeClaimArgs,
  // A receipt photographed as such (server/modules/receipts/): read by the AI pipeline, reviewed in the inbox.
  "receipt.capture": receiptCaptureArgs,
  // Loans (server/modules/loans/): lend, return and change a loan with no signal; contacts are made inline.
  "loan.create": loanCreateArgs,
  "loan.return": loanReturnArgs,
  "loan.update": loanUpdateArgs,
  // Moves (server/modules/moves/): a mover scans boxes in the truck with no signal.
  "move.create": moveCreateArgs,
  "move.update": moveUpdateArgs,
  "box.add": boxAddArgs,
  "box.update": boxUpdateArgs,
  "box.load": boxScanArgs,
  "box.unload": boxScanArgs,
  "box.unpack": boxScanArgs,
  "box.remove": boxRemoveArgs,
} as const;

export type OpName = keyof typeof opArgs;
export const OP_NAMES = Object.keys(opArgs) as OpName[];

/** An op as the device's outbox holds it, typed by name. */
export type Op = {
  [N in OpName]: { id: string; name: N; locationId: string; args: z.input<(typeof opArgs)[N]>; baseVersion?: number; at: string };
}[OpName];

export const isOpName = (name: string): name is OpName => Object.hasOwn(opArgs, name);

/** The ops of moves and their boxes: the device replays them on its own tables (client/sync/move-ops.ts), never on things or places. */
export type MoveOp = Extract<Op, { name: `move.${string}` | `box.${string}` }>;
export const isMoveOp = (op: Op): op is MoveOp => op.name.startsWith("move.") || op.name.startsWith("box.");
