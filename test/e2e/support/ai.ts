/**
 * The e2e setup of the AI pipeline: a provider stand-in speaking OpenAI's wire format, the built
 * app on a service paid by the instance through it, and the extraction worker polling often.
 */
import { pino } from "pino";
import { startExtractionWorker } from "../../../server/modules/extractions/worker.js";
import { blobStoreOf } from "../../../server/modules/files/blob-store.js";
import { openaiFormat } from "../../support/ai-standins/openai.js";
import { startStandin, type Standin } from "../../support/ai-standins/server.js";
import { startE2e, type E2e } from "./app.js";

export interface AiE2e {
  e2e: E2e;
  standin: Standin;
  close(): Promise<void>;
}

export async function startAiE2e(): Promise<AiE2e> {
  const standin = await startStandin(openaiFormat());
  const e2e = await startE2e({ SVC_AI_PROVIDER: "provider_a", SVC_AI_MODEL: "gpt-4o-mini", SVC_AI_API_KEY: "sk-standin", SVC_AI_BASE_URL: standin.baseUrl });
  const { svc } = e2e;
  const worker = startExtractionWorker({
    db: svc.database.db,
    config: svc.config,
    store: blobStoreOf(svc.config),
    logger: pino({ level: "silent" }),
    pollMs: 250,
  });
  return {
    e2e,
    standin,
    async close() {
      await worker.stop();
      await e2e.close();
      await standin.close();
    },
  };
}
