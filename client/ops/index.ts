/**
 * The table of every op the device can queue, one file each (op.ts says what a file holds). The
 * views, the outbox's shapes and the sync screen look ops up here instead of each keeping its own
 * switch over op names.
 */
import type { Op, OpName } from "../../sync/ops.js";
import type { SyncedTableName } from "../db/rows.js";
import type { Appliers, OpDefinition, Translate, View } from "./op.js";
import { op as boxcheckRecord } from "./field/boxcheck.record.js";
import { op as codeClaim } from "./field/code.claim.js";
import { op as inboxAccept } from "./inbox/inbox.accept.js";
import { op as inboxDismiss } from "./inbox/inbox.dismiss.js";
import { op as inboxMerge } from "./inbox/inbox.merge.js";
import { op as loanCreate } from "./loans/loan.create.js";
import { op as loanReturn } from "./loans/loan.return.js";
import { op as loanUpdate } from "./loans/loan.update.js";
import { op as meterCreate } from "./meters/meter.create.js";
import { op as meterDelete } from "./meters/meter.delete.js";
import { op as meterUpdate } from "./meters/meter.update.js";
import { op as readingCapture } from "./meters/reading.capture.js";
import { op as boxAdd } from "./moves/box.add.js";
import { op as boxLoad } from "./moves/box.load.js";
import { op as boxRemove } from "./moves/box.remove.js";
import { op as boxUnload } from "./moves/box.unload.js";
import { op as boxUnpack } from "./moves/box.unpack.js";
import { op as boxUpdate } from "./moves/box.update.js";
import { op as moveCreate } from "./moves/move.create.js";
import { op as moveUpdate } from "./moves/move.update.js";
import { op as placeCreate } from "./places/place.create.js";
import { op as placeDelete } from "./places/place.delete.js";
import { op as placeUpdate } from "./places/place.update.js";
import { op as receiptCapture } from "./receipts/receipt.capture.js";
import { op as brandCreate } from "./registries/brand.create.js";
import { op as placeKindCreate } from "./registries/place_kind.create.js";
import { op as placeKindUpdate } from "./registries/place_kind.update.js";
import { op as tagCreate } from "./registries/tag.create.js";
import { op as typeCreate } from "./registries/type.create.js";
import { op as typeUpdate } from "./registries/type.update.js";
import { op as typeFieldArchive } from "./registries/type_field.archive.js";
import { op as typeFieldCreate } from "./registries/type_field.create.js";
import { op as typeFieldUpdate } from "./registries/type_field.update.js";
import { op as templateCreate } from "./templates/template.create.js";
import { op as templateDelete } from "./templates/template.delete.js";
import { op as templateUpdate } from "./templates/template.update.js";
import { op as thingCapture } from "./things/thing.capture.js";
import { op as thingCreate } from "./things/thing.create.js";
import { op as thingDelete } from "./things/thing.delete.js";
import { op as thingFieldConfirm } from "./things/thing.field.confirm.js";
import { op as thingMove } from "./things/thing.move.js";
import { op as thingPhotoAdd } from "./things/thing.photo.add.js";
import { op as thingPhotoCover } from "./things/thing.photo.cover.js";
import { op as thingPhotoRemove } from "./things/thing.photo.remove.js";
import { op as thingSuggestionAccept } from "./things/thing.suggestion.accept.js";
import { op as thingUpdate } from "./things/thing.update.js";

type Table = { [N in OpName]: OpDefinition<N> };

const table: Table = {
  "boxcheck.record": boxcheckRecord,
  "code.claim": codeClaim,
  "inbox.accept": inboxAccept,
  "inbox.dismiss": inboxDismiss,
  "inbox.merge": inboxMerge,
  "loan.create": loanCreate,
  "loan.return": loanReturn,
  "loan.update": loanUpdate,
  "meter.create": meterCreate,
  "meter.delete": meterDelete,
  "meter.update": meterUpdate,
  "reading.capture": readingCapture,
  "box.add": boxAdd,
  "box.load": boxLoad,
  "box.remove": boxRemove,
  "box.unload": boxUnload,
  "box.unpack": boxUnpack,
  "box.update": boxUpdate,
  "move.create": moveCreate,
  "move.update": moveUpdate,
  "place.create": placeCreate,
  "place.delete": placeDelete,
  "place.update": placeUpdate,
  "receipt.capture": receiptCapture,
  "brand.create": brandCreate,
  "place_kind.create": placeKindCreate,
  "place_kind.update": placeKindUpdate,
  "tag.create": tagCreate,
  "type.create": typeCreate,
  "type.update": typeUpdate,
  "type_field.archive": typeFieldArchive,
  "type_field.create": typeFieldCreate,
  "type_field.update": typeFieldUpdate,
  "template.create": templateCreate,
  "template.delete": templateDelete,
  "template.update": templateUpdate,
  "thing.capture": thingCapture,
  "thing.create": thingCreate,
  "thing.delete": thingDelete,
  "thing.field.confirm": thingFieldConfirm,
  "thing.move": thingMove,
  "thing.photo.add": thingPhotoAdd,
  "thing.photo.cover": thingPhotoCover,
  "thing.photo.remove": thingPhotoRemove,
  "thing.suggestion.accept": thingSuggestionAccept,
  "thing.update": thingUpdate,
};

/** The definition of an op the device knows; undefined for a name it does not (an old or foreign op in a sync_drop). */
export function opDefinition(name: string): OpDefinition<OpName> | undefined {
  return Object.hasOwn(table, name) ? (table[name as OpName] as OpDefinition<OpName>) : undefined;
}

/** The names of the ops whose definition changes `view`. */
export const opsApplyingTo = (view: View): OpName[] => (Object.values(table) as OpDefinition<OpName>[]).filter((d) => d.apply[view]).map((d) => d.name);

/**
 * How `op` changes `view`, or undefined when it does not. The table is typed per name; an op read
 * from the outbox is the union, which its own entry takes by construction. An outbox may hold an
 * op this app does not know (queued by another version of it): it changes no view.
 */
export function applierOf<V extends View>(op: Op, view: V): Appliers<Op>[V] | undefined {
  return (opDefinition(op.name)?.apply as Appliers<Op> | undefined)?.[view];
}

/** Shapes on which an op's effect shows up (and so where its txid arrives); none for an op this app does not know. */
export const shapesOf = (op: Pick<Op, "name">): readonly SyncedTableName[] => opDefinition(op.name)?.shapes ?? [];

/** How the sync screen and a sync_drop name an op; an op the device does not know by its name. */
export function opLabel(op: { name: string }, t: Translate): string {
  const def = opDefinition(op.name);
  return def ? def.label(op as never, t) : op.name;
}
