/**
 * Which shapes an op's effect shows up on: where its txid arrives (sync/SPEC.md PU7), which shapes
 * the pusher brings up to date after a push, and when an applied outbox entry may retire.
 */
import type { Op } from "../../sync/ops.js";
import type { SyncedTableName } from "../db/rows.js";
import { registryShapesOf } from "./optimistic-registries.js";

/** Shapes on which an op's effect shows up (and so where its txid arrives). */
export function shapesOf(op: Op): SyncedTableName[] {
  switch (op.name) {
    case "thing.create":
    case "thing.update":
    case "thing.move":
    case "thing.delete":
    case "thing.suggestion.accept":
    case "thing.field.confirm":
    case "thing.photo.add":
    case "thing.photo.remove":
    case "thing.photo.cover":
      return ["things"];
    case "thing.capture":
      return ["things", "inbox"];
    case "place.create":
    case "place.update":
    case "place.delete":
      return ["places"];
    case "inbox.accept":
    case "inbox.dismiss":
    case "inbox.merge":
      // A reviewed reading changes its reading; a label claim, who holds the code.
      return ["inbox", "readings", "codes", "things", "places"];
    case "meter.create":
    case "meter.update":
    case "meter.delete":
      return ["meters"];
    case "reading.capture":
      // An implausible reading is also an inbox item.
      return ["readings", "inbox"];
    case "receipt.capture":
      // Its purchase is not synced; the receipt item shows it.
      return ["inbox"];
    case "boxcheck.record":
      return ["box_checks", "things"];
    case "code.claim":
      return ["codes", "things", "places", "inbox"];
    // A loan to a new person makes a contact; lending part of a quantity splits the thing, a return joins or moves it.
    case "loan.create":
      return ["loans", "contacts", "things"];
    case "loan.return":
      return ["loans", "things"];
    case "loan.update":
      return ["loans"];
    // Moves (move-ops.ts): unpacking moves the box and what is in it, with their rows.
    case "move.create":
    case "move.update":
      return ["moves"];
    case "box.add":
    case "box.load":
    case "box.unload":
    case "box.remove":
      return ["move_boxes"];
    case "box.update":
    case "box.unpack":
      return ["move_boxes", "things", "codes", "meters", "readings", "box_checks", "inbox"];
    default:
      // Registry ops (types, fields, place kinds, brands, tags, templates): optimistic-registries.ts.
      return registryShapesOf(op) ?? [];
  }
}
