/**
 * The error classes. Each failure has a stable snake_case code (shared/errors.ts) and a status;
 * they are mapped to HTTP in one place (errorHandler in server/http/app.ts). Messages tell the
 * caller how to fix the problem.
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

export class ValidationError extends AppError {
  constructor(message: string, details?: unknown) {
    super(400, "validation_failed", message, details);
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

export class MfaRequiredError extends AppError {
  constructor() {
    super(403, "mfa_required", "Finish signing in with your second factor first.");
  }
}

export class ReauthRequiredError extends AppError {
  constructor() {
    super(403, "reauth_required", "Confirm your password again to do this.");
  }
}

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

export class UndoExpiredError extends AppError {
  constructor() {
    super(409, "undo_expired", "The undo window for this change has passed, or it was already undone.");
  }
}

export class SignupClosedError extends AppError {
  constructor() {
    super(403, "signup_closed", "Sign-up is closed on this server; ask a member for an invite.");
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, "payload_too_large", `The request body is larger than ${limitBytes} bytes.`, { limitBytes });
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, "rate_limited", `Too many requests; try again in ${retryAfterSeconds} s.`, { retryAfterSeconds });
  }
}
