/**
 * Requests Node's HTTP parser refuses before Express sees them: a request line and headers past
 * Node's header limit (16 KiB: a megabyte of query string), or bytes that are not HTTP. Node would
 * answer with a bare status line; these leave in our error body like every other refusal.
 * Attached with `server.on("clientError", answerClientError)`.
 */
import { maxHeaderSize, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorBody } from "../../shared/errors.js";

export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // An answer already under way on this connection cannot be followed by another one.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, error]: [number, ErrorBody["error"]] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, { code: "payload_too_large", message: `The request line and headers are larger than ${maxHeaderSize} bytes.` }]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, { code: "validation_failed", message: "The request did not arrive in time." }]
        : [400, { code: "validation_failed", message: "The request is not valid HTTP." }];
  const body = JSON.stringify({ error } satisfies ErrorBody);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "X-Content-Type-Options: nosniff\r\n" +
      "Connection: close\r\n\r\n" +
      body,
  );
}
