/** A refusal by one of the rules devices check too (sync/op-rules.ts), as the error the write path answers. */
import type { Refusal } from "../../sync/op-rules.js";
import { ConflictError, ForbiddenError, ValidationError, type AppError } from "./classes.js";

const HOLDS = { holds_places: "places", holds_things: "things" } as const;

export function refusalError(r: Refusal): AppError {
  if (r.reason === "forbidden") return new ForbiddenError(r.message);
  if (r.reason === "invalid") return new ValidationError(r.message);
  return new ConflictError(r.message, r.rule === "holds_places" || r.rule === "holds_things" ? { holds: HOLDS[r.rule] } : undefined);
}
