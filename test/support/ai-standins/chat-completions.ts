/**
 * The chat completions wire format (POST {base}/chat/completions) as OpenRouter, Mistral and
 * OpenAI-compatible servers speak it: `Authorization: Bearer`, images as `image_url` parts (a
 * `{url}` object, or Mistral's bare string), the schema in `response_format.json_schema`.
 */
import { asArray, asRecord, fromDataUrl, USAGE, type WireFormat } from "./server.js";

interface ChatOptions {
  name: string;
  basePath: string;
  /** OpenRouter usage accounting: the cost it reports in `usage.cost` (credits, USD). */
  cost?: number;
  /** Whether this server has a way to refuse (finish_reason content_filter); Mistral has none. */
  refusal?: "content_filter";
  /**
   * A server that can only follow a schema it is given (llama.cpp grammars, vLLM guided decoding):
   * asked for json_object without a schema it answers `{}` (research/stack-spike-2.md).
   */
  followsOnlyGivenSchema?: boolean;
}

function completion(model: unknown, content: string, finish: string, cost: number | undefined) {
  return {
    id: "chatcmpl-standin",
    object: "chat.completion",
    created: 1_764_000_000,
    model: typeof model === "string" ? model : "standin",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finish }],
    usage: {
      prompt_tokens: USAGE.input,
      completion_tokens: USAGE.output,
      total_tokens: USAGE.input + USAGE.output,
      ...(cost !== undefined ? { cost } : {}),
    },
  };
}

export function chatCompletions(o: ChatOptions): WireFormat {
  const schemaOf = (body: Record<string, unknown>) => {
    const rf = asRecord(body.response_format);
    return rf.type === "json_schema" ? asRecord(rf.json_schema).schema : undefined;
  };
  return {
    name: o.name,
    basePath: o.basePath,
    endpoint: (path) => path === `${o.basePath}/chat/completions`,
    keyOf: (h) => /^Bearer (.+)$/.exec(h.authorization ?? "")?.[1],
    imagesOf: (body) =>
      asArray(body.messages)
        .flatMap((m) => asArray(asRecord(m).content))
        .map(asRecord)
        .filter((p) => p.type === "image_url")
        .map((p) => fromDataUrl(typeof p.image_url === "string" ? p.image_url : asRecord(p.image_url).url))
        .filter((x) => x !== null),
    schemaOf,
    reply(s, body) {
      const cost = o.cost;
      switch (s.do) {
        case "ok":
          if (o.followsOnlyGivenSchema && schemaOf(body) === undefined) return { status: 200, body: completion(body.model, "{}", "stop", cost) };
          return { status: 200, body: completion(body.model, JSON.stringify(s.object), "stop", cost) };
        case "refuse":
          if (!o.refusal) throw new Error(`${o.name} has no refusal in its wire format`);
          return { status: 200, body: completion(body.model, "", o.refusal, cost) };
        case "truncate":
          return { status: 200, body: completion(body.model, '{"brand":"Bos', "length", cost) };
        case "text":
          return { status: 200, body: completion(body.model, s.text, "stop", cost) };
      }
    },
    // A wrong key is 401 on each: OpenRouter {error: {message, code}}, Mistral {message, request_id}, OpenAI-compatible servers OpenAI's body.
    error: (status) =>
      status === 401 && o.name === "openrouter"
        ? { error: { message: "No auth credentials found", code: 401 } }
        : status === 401 && o.name === "mistral"
          ? { message: "Unauthorized", request_id: "standin" }
          : {
              error: {
                message: status === 429 ? "Rate limit reached for requests" : status === 401 ? "Invalid API key" : "The server had an error",
                type: status === 429 ? "rate_limit_error" : status === 401 ? "invalid_request_error" : "server_error",
                code: status === 401 ? "invalid_api_key" : null,
              },
            },
    // OpenRouter's model list needs no key; its key info does.
    checkPath: o.name === "openrouter" ? `${o.basePath}/key` : `${o.basePath}/models`,
    checked: () =>
      o.name === "openrouter"
        ? { data: { label: "sk-or-v1-standin", usage: 0, limit: null, is_free_tier: false } }
        : { object: "list", data: [{ id: "standin", object: "model", created: 1_764_000_000, owned_by: o.name }] },
  };
}

export const openrouterFormat = (cost: number) => chatCompletions({ name: "openrouter", basePath: "/api/v1", cost, refusal: "content_filter" });
export const mistralFormat = () => chatCompletions({ name: "mistral", basePath: "/v1" });
export const compatibleFormat = () => chatCompletions({ name: "compatible", basePath: "/v1", refusal: "content_filter", followsOnlyGivenSchema: true });
