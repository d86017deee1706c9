/**
 * The error classes. Each failure has a stable snake_case code (shared/errors.ts) and a status.
 * What they become elsewhere is one file each beside this one: HTTP answers (http.ts), sync drop
 * reasons (drop-reason.ts), MCP tool errors (mcp.ts); and what becomes them: zod issues (zod.ts),
 * database error codes (database.ts). Messages tell the caller how to fix the problem.
 */
import type { ErrorCode } from "../../shared/errors.js";

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The base of an error that always says the same thing: its status, code and message, given once. */
function fixedError(status: number, code: ErrorCode, message: string) {
  return class extends AppError {
    constructor() {
      super(status, code, message);
    }
  };
}

export class ValidationError extends AppError {
  constructor(message: string, details?: unknown) {
    super(400, "validation_failed", message, details);
  }
}

/** A command name that is not one the caller may run (a pushed op outside sync/ops.ts: reason unknown_op). */
export class UnknownCommandError extends ValidationError {
  constructor(name: string) {
    super(`"${name.slice(0, 64)}" is not an operation this server accepts; only the ops of the sync protocol can be pushed.`, { name: name.slice(0, 64) });
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = "Sign in first.") {
    super(401, "unauthenticated", message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "You are not allowed to do this.", details?: unknown) {
    super(403, "forbidden", message, details);
  }
}

/**
 * A write by a read-only token or MCP grant. Its scope is the cause, not its creator's role (an
 * owner's read token would otherwise be told "Your role (owner) cannot ..."), so the message says
 * what to make instead.
 */
export class ReadOnlyScopeError extends ForbiddenError {
  constructor(via: "token" | "mcp" | "session", doing: string) {
    super(
      via === "token"
        ? `This token can only read; make a token with write access (scope "write") to ${doing}.`
        : via === "mcp"
          ? `This connection was granted read access only; connect the assistant again and allow changes (svc:write) to ${doing}.`
          : `This session can only read, so it cannot ${doing}.`,
      { reason: "read_only_scope", scope: via === "mcp" ? "svc:read" : "read" },
    );
  }
}

export class MfaRequiredError extends fixedError(403, "mfa_required", "Finish signing in with your second factor first.") {}

export class ReauthRequiredError extends fixedError(403, "reauth_required", "Confirm your password again to do this.") {}

/** Used both for absent rows and for rows the caller may not see, so existence never leaks. */
export class NotFoundError extends AppError {
  constructor(what = "record") {
    super(404, "not_found", `No such ${what}, or you cannot see it.`);
  }
}

export class VersionConflictError extends AppError {
  constructor(current: number, details?: Record<string, unknown>) {
    super(409, "version_conflict", "Someone changed this since you loaded it; reload and try again.", {
      rowVersion: current,
      ...details,
    });
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: unknown) {
    super(409, "conflict", message, details);
  }
}

export class GoneError extends AppError {
  constructor(what = "record") {
    super(410, "gone", `This ${what} was deleted.`);
  }
}

export class UndoExpiredError extends fixedError(409, "undo_expired", "The undo window for this change has passed, or it was already undone.") {}

export class SignupClosedError extends fixedError(403, "signup_closed", "Sign-up is closed on this server; ask a member for an invite.") {}

export class PayloadTooLargeError extends AppError {
  constructor(maxBytes: number, extra: Record<string, unknown> = {}, message = `The request body is larger than ${maxBytes} bytes.`) {
    super(413, "payload_too_large", message, { maxBytes, ...extra });
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, "rate_limited", `Too many requests; try again in ${retryAfterSeconds} s.`, { retryAfterSeconds });
  }
}

/** The location is not (or no longer) visible to the actor: reads as not found (sync reason not_visible). */
export class LocationNotVisibleError extends NotFoundError {
  constructor() {
    super("location");
  }
}

/** A pushed op referred to a row whose create was dropped earlier in the same batch (sync/SPEC.md DR4). */
export class DependsOnDroppedError extends AppError {
  constructor(readonly dependsOnOpId: string | undefined) {
    super(409, "conflict", `This change depended on an earlier change that did not go through${dependsOnOpId ? ` (op ${dependsOnOpId})` : ""}.`, {
      dependsOnOpId,
    });
  }
}

export class ClientTooOldError extends AppError {
  constructor(minProtocol: number) {
    super(426, "client_too_old", "This app is too old for the server; update it (your changes are kept and sync after the update).", { minProtocol });
  }
}

export class UnavailableError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message = "The server is busy; try again shortly.",
  ) {
    super(503, "unavailable", message, { retryAfterSeconds });
  }
}
