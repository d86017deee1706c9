/**
 * JSON requests to our API from the app and the service worker: same-origin cookies, our one
 * error body (`{"error": {"code", "message"}}`, shared/errors.ts) turned into an ApiError, and
 * network failures told apart from answers (an offline device is not an error to show).
 */
import type { ErrorCode } from "../../shared/errors.js";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "network" | "unknown",
    message: string,
    readonly retryAfter: string | null = null,
    readonly details: unknown = undefined,
  ) {
    super(message);
  }
  get offline(): boolean {
    return this.code === "network";
  }
}

/** Absolute URL of an API path (the service worker has no document to resolve against). */
export const apiUrl = (path: string) => new URL(path, globalThis.location.origin).href;

export async function request(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    const headers: Record<string, string> = { accept: "application/json" };
    let payload: BodyInit | undefined;
    if (body instanceof Blob) {
      payload = body;
      headers["content-type"] = body.type || "application/octet-stream";
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers["content-type"] = "application/json";
    }
    response = await fetch(apiUrl(path), { method, headers, credentials: "same-origin", ...(payload !== undefined ? { body: payload } : {}), ...init });
  } catch (err) {
    throw new ApiError(0, "network", err instanceof Error ? err.message : "The network is unavailable.");
  }
  if (response.ok) return response;
  let code: ApiError["code"] = "unknown";
  let message = `The server answered ${response.status}.`;
  let details: unknown;
  try {
    const parsed = (await response.json()) as { error?: { code?: ErrorCode; message?: string; details?: unknown } };
    if (parsed.error?.code) code = parsed.error.code;
    if (parsed.error?.message) message = parsed.error.message;
    details = parsed.error?.details;
  } catch {
    // Not our JSON (a proxy's page): keep the status.
  }
  throw new ApiError(response.status, code, message, response.headers.get("retry-after"), details);
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await request(method, path, body);
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/**
 * Every item of a paged list (spec conventions 6: `items` and `next_cursor`), following
 * `next_cursor` until the server says there is no more. For screens that show a whole list.
 */
export async function apiAll<T>(path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const url: string = cursor === null ? path : `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`;
    const page: { items: T[]; next_cursor: string | null } = await api("GET", url);
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return items;
}
