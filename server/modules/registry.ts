/**
 * Every command the write path knows, by name, and the write core bound to them. Sync ops and REST
 * routes both resolve here; push narrows it to the ops of sync/ops.ts (its `accepts`). The list
 * lives with the modules so that server/commands/ knows no domain (DESIGN.md "Layout and
 * dependency direction"); a new domain module adds its commands here. System commands (the
 * server's own writes: jobs, and acts whose authority the caller checked) run only through
 * executeSystem/runSystem, from a transaction with the service's authority.
 */
import { OP_NAMES } from "../../sync/ops.js";
import { OP_MIN_ROLE } from "../../sync/op-rules.js";
import { createExecutor } from "../commands/executor.js";
import { commandRegistryOf } from "../commands/types.js";
import { fileCreate } from "./files/commands.js";
import { historyUndo } from "./history/undo.js";
import { inboxAccept, inboxDismiss, inboxMerge } from "./inbox/commands.js";
import { inboxRaise } from "./inbox/raise.js";
import { locationCreate, locationUpdate } from "./locations/commands.js";
import { locationDelete, locationRestore, locationTransfer } from "./locations/lifecycle.js";
import { memberRemove, memberUpdate } from "./members/commands.js";
import { memberJoin } from "./members/join.js";
import { placeCreate, placeDelete, placeUpdate } from "./places/commands.js";
import { typeFieldArchive, typeFieldCreate, typeFieldUpdate } from "./registries/field-commands.js";
import { brandCreate, placeKindCreate, placeKindUpdate, tagCreate } from "./registries/kind-commands.js";
import { typeCreate, typeUpdate } from "./registries/type-commands.js";
import { thingCapture } from "./things/capture.js";
import { fieldConfirm, suggestionAccept } from "./extractions/commands.js";
import { thingExtract } from "./extractions/apply.js";
import { thingDelete, thingMove, thingUpdate } from "./things/commands.js";
import { thingCreate } from "./things/create.js";
import { thingPhotoAdd, thingPhotoCover, thingPhotoRemove } from "./things/photos.js";
import { templateCreate, templateDelete, templateUpdate } from "./templates/commands.js";
import { secretReveal, typeFieldConvert } from "./secrets/commands.js";
import { boxCheckRecord } from "./box-checks/commands.js";
import { codeClaim } from "./codes/claim.js";
import { labelSheetCreate } from "./codes/sheets.js";
import { meterCreate, meterDelete, meterUpdate, readingCapture } from "./meters/index.js";
import { meterNudge } from "./meters/nudge.js";
import { receiptCapture } from "./receipts/capture.js";
import { loanCreate } from "./loans/commands.js";
import { loanReturn, loanUpdate } from "./loans/return.js";
import { loanOverdueNoted } from "./loans/overdue-noted.js";
import { moveCreate, moveUpdate } from "./moves/commands.js";
import { boxLoad, boxRemove, boxUnload, boxUnpack, boxUpdate } from "./moves/boxes.js";
import { boxAdd } from "./moves/add.js";

export const commandRegistry = commandRegistryOf([
  locationCreate,
  locationUpdate,
  locationDelete,
  locationRestore,
  locationTransfer,
  placeCreate,
  placeUpdate,
  placeDelete,
  thingCreate,
  thingUpdate,
  thingMove,
  thingDelete,
  thingCapture,
  thingPhotoAdd,
  thingPhotoRemove,
  thingPhotoCover,
  suggestionAccept,
  fieldConfirm,
  thingExtract,
  historyUndo,
  memberUpdate,
  memberRemove,
  memberJoin,
  inboxAccept,
  inboxDismiss,
  inboxMerge,
  inboxRaise,
  fileCreate,
  typeCreate,
  typeUpdate,
  typeFieldCreate,
  typeFieldUpdate,
  typeFieldArchive,
  placeKindCreate,
  placeKindUpdate,
  brandCreate,
  tagCreate,
  templateCreate,
  templateUpdate,
  templateDelete,
  secretReveal,
  typeFieldConvert,
  boxCheckRecord,
  codeClaim,
  labelSheetCreate,
  meterCreate,
  meterUpdate,
  meterDelete,
  readingCapture,
  meterNudge,
  receiptCapture,
  loanCreate,
  loanReturn,
  loanUpdate,
  loanOverdueNoted,
  moveCreate,
  moveUpdate,
  boxAdd,
  boxUpdate,
  boxLoad,
  boxUnload,
  boxUnpack,
  boxRemove,
]);

// Devices refuse an op their role cannot do before queueing it, by the table in sync/op-rules.ts:
// a command of a pushable op that asked for another role would make them refuse wrongly (or let
// through what is then dropped), so the server does not start with the two apart.
// A system command is the server's own write: it is never a device's op (the executor refuses it
// on the request path anyway; this says so at start, not at the first push).
for (const name of OP_NAMES) {
  const def = commandRegistry.get(name);
  if (!def || def.minRole !== OP_MIN_ROLE[name])
    throw new Error(`${name}: the command's minRole (${def?.minRole}) is not sync/op-rules.ts's (${OP_MIN_ROLE[name]})`);
  if (def.system) throw new Error(`${name}: a system command cannot be a sync op`);
}

export const { executeInTx, executeBatch, runOne, executeSystem, runSystem } = createExecutor(commandRegistry);
