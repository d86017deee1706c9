/**
 * Gemini's generateContent (POST /v1beta/models/{model}:generateContent): the key in
 * `x-goog-api-key`, images as `inlineData` parts, the schema in `generationConfig`
 * (responseJsonSchema or the older responseSchema) with responseMimeType application/json; a
 * refusal is finishReason SAFETY with no content, a cut-off answer finishReason MAX_TOKENS.
 */
import { asArray, asRecord, USAGE, type WireFormat } from "./server.js";

function generated(parts: Record<string, unknown>[] | null, finishReason: string) {
  return {
    candidates: [{ ...(parts ? { content: { role: "model", parts } } : {}), finishReason, index: 0 }],
    usageMetadata: { promptTokenCount: USAGE.input, candidatesTokenCount: USAGE.output, totalTokenCount: USAGE.input + USAGE.output },
    modelVersion: "standin",
  };
}

export const geminiFormat = (): WireFormat => ({
  name: "gemini",
  basePath: "/v1beta",
  endpoint: (path) => /^\/v1beta\/models\/[^/]+:generateContent$/.test(path),
  keyOf: (h) => (typeof h["x-goog-api-key"] === "string" ? h["x-goog-api-key"] : undefined),
  imagesOf: (body) =>
    asArray(body.contents)
      .flatMap((c) => asArray(asRecord(c).parts))
      .map((p) => asRecord(asRecord(p).inlineData))
      .filter((d) => typeof d.data === "string")
      .map((d) => ({ mime: String(d.mimeType), base64: String(d.data) })),
  schemaOf: (body) => {
    const config = asRecord(body.generationConfig);
    if (config.responseMimeType !== "application/json") return undefined;
    return config.responseJsonSchema ?? config.responseSchema;
  },
  reply(s) {
    switch (s.do) {
      case "ok":
        return { status: 200, body: generated([{ text: JSON.stringify(s.object) }], "STOP") };
      case "refuse":
        return { status: 200, body: generated(null, "SAFETY") };
      case "truncate":
        return { status: 200, body: generated([{ text: '{"brand":"Bos' }], "MAX_TOKENS") };
      case "text":
        return { status: 200, body: generated([{ text: s.text }], "STOP") };
    }
  },
  error: (status) => ({
    error: {
      code: status,
      message:
        status === 429
          ? "Resource has been exhausted (e.g. check quota)."
          : status === 403
            ? "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."
            : "An internal error has occurred.",
      status: status === 429 ? "RESOURCE_EXHAUSTED" : status === 403 ? "PERMISSION_DENIED" : "INTERNAL",
    },
  }),
  // As generativelanguage.googleapis.com answers a wrong key: 400 INVALID_ARGUMENT with reason API_KEY_INVALID.
  badKey: () => ({
    status: 400,
    body: {
      error: {
        code: 400,
        message: "API key not valid. Please pass a valid API key.",
        status: "INVALID_ARGUMENT",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "API_KEY_INVALID",
            domain: "googleapis.com",
            metadata: { service: "generativelanguage.googleapis.com" },
          },
        ],
      },
    },
  }),
  checkPath: "/v1beta/models",
  checked: () => ({ models: [{ name: "models/gemini-2.5-flash", displayName: "Gemini 2.5 Flash" }] }),
});
