/** What a database error raised by a single op becomes: the verdict the caller sees, by SQLSTATE. */
import { AppError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from "./classes.js";

const outOfRange = () => new ValidationError("A value is out of range or malformed.");

const BY_SQLSTATE: Record<string, () => AppError> = {
  "23505": () => new ConflictError("A record with this id or code already exists."),
  "23503": () => new NotFoundError("referenced record"),
  "23514": outOfRange,
  "22P02": outOfRange,
  "22003": outOfRange,
  "22021": outOfRange,
  "22P05": outOfRange,
  "42501": () => new ForbiddenError("The database refused this write for your role."),
};

/** An AppError as it is; a database error by its SQLSTATE (on the error or its cause); anything else is thrown again. */
export function dbErrorToAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const cause = (err as { cause?: { code?: string } }).cause ?? (err as { code?: string });
  const make = typeof cause.code === "string" && Object.hasOwn(BY_SQLSTATE, cause.code) ? BY_SQLSTATE[cause.code] : undefined;
  if (!make) throw err;
  return make();
}
