/**
 * What an error becomes in a log line. Logs never hold request data (docs/admin/configuration.md:
 * SVC_LOG_LEVEL), but errors carry it: drizzle's DrizzleQueryError has the SQL text and every
 * parameter in its message and fields (thing names, email addresses, a token's lookup and HMAC),
 * PGlite adds them to its errors too, a PostgreSQL error's `detail` quotes the key that collided,
 * and an SMTP refusal quotes the address. So a database error is logged as its SQLSTATE, the query's
 * name and the schema names the database gave (constraint, table, column); an SMTP error as its
 * command and status; anything else as its type, message, code and stack frames. Fields are copied
 * by name, never all of them. `safeErrorLogger` installs this as the `err` serializer, the key every
 * error is logged under (pino puts an Error given as the first argument there too).
 */
import type { Logger } from "pino";
import { statementNameOf } from "../db/client.js";

type Fields = Record<string, unknown>;

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * A short name for a statement from its SQL text, which holds no values (drizzle sends them as
 * parameters): the first keyword and the first table it reads or writes, with the name namedRows
 * gave it (server/db/client.ts) if any, e.g. `insert things (bulk_insert_AbC12dEf34)`.
 */
export function queryName(sqlText: string): string {
  const verb = /^\s*([A-Za-z]+)/.exec(sqlText)?.[1]?.toLowerCase() ?? "query";
  const table = /\b(?:into|update|from)\s+(?:"([A-Za-z_][\w$]*)"|([A-Za-z_][\w$]*))/i.exec(sqlText);
  const name = table?.[1] ?? table?.[2];
  const label = name ? `${verb} ${name}` : verb;
  const named = statementNameOf(sqlText);
  return named ? `${label} (${named})` : label;
}

/** The error's class name: an Error's constructor, or the `type` pino's standard serializer already wrote. */
function typeOf(err: object): string {
  if (err instanceof Error) return err.constructor.name;
  const type = (err as Fields).type;
  return typeof type === "string" ? type : "Error";
}

/** A V8 stack frame line: `    at fn (file:line:col)` or `    at file:line:col`. */
const FRAME = /^ {4}at .*:\d+:\d+\)?$/;

/** Only the stack frames: the stack starts with the message, which may span lines (SQL text does). */
function frames(err: Fields): string | undefined {
  if (typeof err.stack !== "string") return undefined;
  const message = typeof err.message === "string" ? err.message : "";
  const at = message ? err.stack.indexOf(message) : -1;
  const rest = at >= 0 ? err.stack.slice(at + message.length) : err.stack;
  return rest
    .split("\n")
    .filter((line) => FRAME.test(line))
    .join("\n");
}

function isDatabaseError(e: Fields): boolean {
  return typeof e.code === "string" && SQLSTATE.test(e.code) && typeof e.severity === "string";
}

/** The database error in `err` or its cause, and the query that failed, if any. */
function databaseFailure(e: Fields): { query?: string; db?: Fields } | null {
  const cause = e.cause && typeof e.cause === "object" ? (e.cause as Fields) : undefined;
  const db = isDatabaseError(e) ? e : cause && isDatabaseError(cause) ? cause : undefined;
  const sqlText = [e.query, cause?.query].find((q): q is string => typeof q === "string");
  const failedQuery = sqlText !== undefined && (Array.isArray(e.params) || Array.isArray(cause?.params) || db !== undefined);
  if (!db && !failedQuery) return null;
  return { ...(sqlText !== undefined ? { query: queryName(sqlText) } : {}), ...(db ? { db } : {}) };
}

const stringField = (e: Fields, key: string): Fields => (typeof e[key] === "string" || typeof e[key] === "number" ? { [key]: e[key] } : {});

export function serializeError(err: unknown, depth = 0): unknown {
  if (typeof err !== "object" || err === null) return { type: typeof err, message: "(not an Error)" };
  const e = err as Fields;
  const type = typeOf(err);
  const stack = frames(e);
  const failure = databaseFailure(e);
  if (failure) {
    const code = typeof failure.db?.code === "string" ? failure.db.code : undefined;
    const schemaNames = failure.db
      ? { ...stringField(failure.db, "constraint"), ...stringField(failure.db, "table"), ...stringField(failure.db, "column") }
      : {};
    return {
      type,
      message: `Database error${code ? ` ${code}` : ""}${failure.query ? ` in ${failure.query}` : ""}`,
      ...(code ? { code } : {}),
      ...(failure.query ? { query: failure.query } : {}),
      ...schemaNames,
      ...(stack !== undefined ? { stack } : {}),
    };
  }
  if (typeof e.command === "string" || typeof e.responseCode === "number") {
    // nodemailer: the server's answer (message, `response`) quotes the recipient's address.
    return {
      type,
      message: "SMTP error",
      ...stringField(e, "code"),
      ...stringField(e, "command"),
      ...stringField(e, "responseCode"),
      ...(stack !== undefined ? { stack } : {}),
    };
  }
  const cause = e.cause !== undefined && depth < 5 ? { cause: serializeError(e.cause, depth + 1) } : {};
  return {
    type,
    message: typeof e.message === "string" ? e.message : "",
    ...stringField(e, "code"),
    ...(stack !== undefined ? { stack } : {}),
    ...cause,
  };
}

/** `logger` with serializeError for `err`; every component logs through this one. */
export function safeErrorLogger(logger: Logger): Logger {
  return logger.child({}, { serializers: { err: (err: unknown) => serializeError(err) } });
}
