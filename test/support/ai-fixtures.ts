/**
 * The fixture of the db tests that read photos with AI: a stand-in provider speaking OpenAI's wire
 * format, a service whose instance key is `aiKey` and whose provider is the stand-in, the owner's
 * location with a client per role, and an extraction worker that runs only when a test asks
 * (`timer: false`). A file sets its key, the keys the stand-in knows, and extra settings:
 *
 *   import { aiTest as test } from "../../support/ai-fixtures.js";
 *   test.override("aiKey", "sk-standin-...");
 *   test.override("standinKeys", [INSTANCE_KEY, GOOD_KEY]);
 */
import { pino } from "pino";
import { blobStoreOf } from "../../server/modules/files/blob-store.js";
import { startExtractionWorker } from "../../server/modules/extractions/worker.js";
import { openaiFormat } from "./ai-standins/openai.js";
import { startStandin } from "./ai-standins/server.js";
import { serviceTest } from "./fixtures.js";
import { locationWithRoles } from "./members.js";

export const aiTest = serviceTest
  .extend("aiKey", { scope: "file" }, "sk-standin-key")
  /** The keys the stand-in answers; any other is answered 401. Empty: it takes any key. */
  .extend("standinKeys", { scope: "file" }, [] as string[])
  /** More settings of the service (SVC_AI_ALLOW_LOOPBACK, ...). */
  .extend("aiEnv", { scope: "file" }, {} as Record<string, string>)
  .extend("standin", { scope: "file" }, async ({ standinKeys }, { onCleanup }) => {
    const standin = await startStandin(openaiFormat(), standinKeys.length ? { keys: standinKeys } : {});
    onCleanup(() => standin.close());
    return standin;
  })
  .extend("serviceEnv", { scope: "file" }, async ({ standin, aiKey, aiEnv }) => ({
    SVC_AI_PROVIDER: "provider_a",
    SVC_AI_MODEL: "gpt-4o-mini",
    SVC_AI_API_KEY: aiKey,
    SVC_AI_BASE_URL: standin.baseUrl,
    ...aiEnv,
  }))
  .extend("team", { scope: "file" }, async ({ svc }) => locationWithRoles(svc))
  .extend("worker", { scope: "file" }, async ({ svc }, { onCleanup }) => {
    const logger = pino({ level: "silent" });
    const worker = startExtractionWorker({ db: svc.database.db, config: svc.config, store: blobStoreOf(svc.config), logger }, { timer: false });
    onCleanup(() => worker.stop());
    return worker;
  });
