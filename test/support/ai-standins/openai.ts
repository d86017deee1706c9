/**
 * OpenAI's Responses API (POST /v1/responses), the one @ai-sdk/openai 3 uses for openai(model):
 * `Authorization: Bearer`, images as `input_image` parts with a data URL, the schema in
 * `text.format` (type json_schema), a refusal as a `refusal` content part, a cut-off answer as
 * status `incomplete` with `incomplete_details.reason` max_output_tokens.
 */
import { asArray, asRecord, fromDataUrl, USAGE, type WireFormat } from "./server.js";

function response(model: unknown, content: Record<string, unknown>[], incomplete: boolean) {
  return {
    id: "resp_standin",
    object: "response",
    created_at: 1_764_000_000,
    model: typeof model === "string" ? model : "standin",
    status: incomplete ? "incomplete" : "completed",
    incomplete_details: incomplete ? { reason: "max_output_tokens" } : null,
    output: [{ type: "message", id: "msg_standin", role: "assistant", status: incomplete ? "incomplete" : "completed", content }],
    usage: {
      input_tokens: USAGE.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: USAGE.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: USAGE.input + USAGE.output,
    },
  };
}

const text = (t: string) => ({ type: "output_text", text: t, annotations: [] });

export const openaiFormat = (): WireFormat => ({
  name: "openai",
  basePath: "/v1",
  endpoint: (path) => path === "/v1/responses",
  keyOf: (h) => /^Bearer (.+)$/.exec(h.authorization ?? "")?.[1],
  imagesOf: (body) =>
    asArray(body.input)
      .flatMap((m) => asArray(asRecord(m).content))
      .map(asRecord)
      .filter((p) => p.type === "input_image")
      .map((p) => fromDataUrl(p.image_url))
      .filter((x) => x !== null),
  schemaOf: (body) => {
    const format = asRecord(asRecord(body.text).format);
    return format.type === "json_schema" ? format.schema : undefined;
  },
  reply(s, body) {
    switch (s.do) {
      case "ok":
        return { status: 200, body: response(body.model, [text(JSON.stringify(s.object))], false) };
      case "refuse":
        return { status: 200, body: response(body.model, [{ type: "refusal", refusal: "I can't help with that." }], false) };
      case "truncate":
        return { status: 200, body: response(body.model, [text('{"brand":"Bos')], true) };
      case "text":
        return { status: 200, body: response(body.model, [text(s.text)], false) };
    }
  },
  // As api.openai.com answers: a wrong key is 401 invalid_api_key, a key without access 403.
  error: (status) => ({
    error:
      status === 401
        ? {
            message: "Incorrect API key provided: sk-stan*****0b1d. You can find your API key at https://platform.openai.com/account/api-keys.",
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          }
        : status === 403
          ? { message: "You are not allowed to sample from this model", type: "invalid_request_error", param: null, code: null }
          : {
              message: status === 429 ? "Rate limit reached for gpt-4o-mini" : "The server had an error while processing your request.",
              type: status === 429 ? "requests" : "server_error",
              param: null,
              code: status === 429 ? "rate_limit_exceeded" : null,
            },
  }),
  checkPath: "/v1/models",
  checked: () => ({ object: "list", data: [{ id: "gpt-4o-mini", object: "model", created: 1_721_172_741, owned_by: "system" }] }),
});
