/** What zod issues and ill-formed text become: our 400 (validation_failed), each issue with its dotted path. */
import type { ZodError } from "zod";
import { ILL_FORMED_TEXT_MESSAGE } from "../../shared/text.js";
import { ValidationError } from "./classes.js";

/** A zod failure as our 400, each issue with its dotted path under `prefix` (body, query, args...). */
export function zodToValidationError(err: ZodError, prefix = ""): ValidationError {
  const issues = err.issues.map((i) => ({ path: [prefix, ...i.path.map(String)].filter(Boolean).join("."), message: i.message }));
  const first = issues[0];
  return new ValidationError(first ? `${first.path || "body"}: ${first.message}` : "Invalid input.", { issues });
}

/** Text the database cannot keep (shared/text.ts), at `path` under `prefix`. */
export function illFormedTextError(path: (string | number)[], prefix: string): ValidationError {
  const at = [prefix, ...path.map(String)].filter(Boolean).join(".");
  return new ValidationError(`${at || "body"}: ${ILL_FORMED_TEXT_MESSAGE}.`, { issues: [{ path: at, message: ILL_FORMED_TEXT_MESSAGE }] });
}
