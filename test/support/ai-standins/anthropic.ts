/**
 * Anthropic's Messages API (POST /v1/messages): the key in `x-api-key` with `anthropic-version`,
 * images as `image` blocks with a base64 source, the schema either in `output_config.format`
 * (models with native structured outputs) or as a forced tool named `json` (the others); a refusal
 * is stop_reason `refusal`, a cut-off answer stop_reason `max_tokens`.
 */
import { asArray, asRecord, USAGE, type WireFormat } from "./server.js";

function message(model: unknown, content: Record<string, unknown>[], stop: string) {
  return {
    id: "msg_standin",
    type: "message",
    role: "assistant",
    model: typeof model === "string" ? model : "standin",
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: USAGE.input, output_tokens: USAGE.output },
  };
}

const jsonTool = (body: Record<string, unknown>) =>
  asArray(body.tools)
    .map(asRecord)
    .find((t) => t.name === "json");

/** The answer where this request asked for it: the forced json tool's input, or text. */
function answer(body: Record<string, unknown>, textOut: string): Record<string, unknown> {
  if (!jsonTool(body)) return { type: "text", text: textOut };
  let input: unknown;
  try {
    input = JSON.parse(textOut);
  } catch {
    return { type: "text", text: textOut }; // a model that ignored the tool and wrote prose
  }
  return { type: "tool_use", id: "toolu_standin", name: "json", input };
}

export const anthropicFormat = (): WireFormat => ({
  name: "anthropic",
  basePath: "/v1",
  endpoint: (path) => path === "/v1/messages",
  keyOf: (h) => (typeof h["x-api-key"] === "string" && h["anthropic-version"] ? h["x-api-key"] : undefined),
  imagesOf: (body) =>
    asArray(body.messages)
      .flatMap((m) => asArray(asRecord(m).content))
      .map(asRecord)
      .filter((p) => p.type === "image" && asRecord(p.source).type === "base64")
      .map((p) => ({ mime: String(asRecord(p.source).media_type), base64: String(asRecord(p.source).data) })),
  schemaOf: (body) => {
    const format = asRecord(asRecord(body.output_config).format);
    if (format.type === "json_schema") return format.schema;
    return jsonTool(body)?.input_schema;
  },
  reply(s, body) {
    const stop = (content: Record<string, unknown>) => (content.type === "tool_use" ? "tool_use" : "end_turn");
    switch (s.do) {
      case "ok": {
        const content = answer(body, JSON.stringify(s.object));
        return { status: 200, body: message(body.model, [content], stop(content)) };
      }
      case "refuse":
        return { status: 200, body: message(body.model, s.after === undefined ? [] : [answer(body, JSON.stringify(s.after))], "refusal") };
      case "truncate":
        return { status: 200, body: message(body.model, [{ type: "text", text: '{"brand":"Bos' }], "max_tokens") };
      case "text": {
        const content = answer(body, s.text);
        return { status: 200, body: message(body.model, [content], stop(content)) };
      }
    }
  },
  // As api.anthropic.com answers: a wrong key is 401 authentication_error, a key without access 403 permission_error.
  error: (status) => ({
    type: "error",
    error:
      status === 401
        ? { type: "authentication_error", message: "invalid x-api-key" }
        : status === 403
          ? { type: "permission_error", message: "Your API key does not have permission to use the specified resource." }
          : {
              type: status === 429 ? "rate_limit_error" : status === 529 ? "overloaded_error" : "api_error",
              message: status === 429 ? "Number of requests has exceeded your rate limit" : "Internal server error",
            },
  }),
  checkPath: "/v1/models",
  checked: () => ({
    data: [{ type: "model", id: "claude-sonnet-4-5", display_name: "Claude Sonnet 4.5", created_at: "2025-09-29T00:00:00Z" }],
    has_more: false,
    first_id: "claude-sonnet-4-5",
    last_id: "claude-sonnet-4-5",
  }),
});
