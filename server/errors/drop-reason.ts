/** What an AppError becomes as a pushed op's drop reason (sync/SPEC.md DR1): by class, the most specific class first. */
import type { DropReason } from "../../sync/protocol.js";
import {
  AppError,
  ConflictError,
  DependsOnDroppedError,
  ForbiddenError,
  GoneError,
  LocationNotVisibleError,
  NotFoundError,
  UnknownCommandError,
  ValidationError,
  VersionConflictError,
} from "./classes.js";

type ErrorClass = abstract new (...args: never[]) => AppError;

const REASON_BY_CLASS = new Map<ErrorClass, DropReason>([
  [UnknownCommandError, "unknown_op"],
  [LocationNotVisibleError, "not_visible"],
  [DependsOnDroppedError, "depends_on_dropped"],
  [VersionConflictError, "stale"],
  [ValidationError, "invalid"],
  [ForbiddenError, "forbidden"],
  [GoneError, "deleted"],
  [NotFoundError, "not_found"],
  [ConflictError, "conflict"],
]);

/** The reason of the error's own class, else of the nearest class it extends; "conflict" for any other. */
export function dropReason(err: AppError): DropReason {
  for (let c: unknown = err.constructor; c && c !== AppError; c = Object.getPrototypeOf(c)) {
    const reason = REASON_BY_CLASS.get(c as ErrorClass);
    if (reason) return reason;
  }
  return "conflict";
}
