/**
 * Settings → AI on a 360 px phone, against an OpenAI-compatible server stand-in that knows one key
 * and answers any other with its real 401: a wrong key typed and saved is refused in words and
 * nothing is stored; the right key saves. When the provider later refuses the stored key (a photo
 * reading meets the 401), the screen says so with the date, in English and in Arabic, and the
 * screen fits the phone in both.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { v7 as uuidv7 } from "uuid";
import { pino } from "pino";
import type { Page } from "playwright-core";
import { aiSettingsOverviewSchema } from "../../shared/ai-settings.js";
import { startExtractionWorker, type Worker } from "../../server/modules/extractions/worker.js";
import { blobStoreOf } from "../../server/modules/files/blob-store.js";
import { compatibleFormat } from "../support/ai-standins/chat-completions.js";
import { startStandin, type Standin } from "../support/ai-standins/server.js";
import type { HttpClient } from "../support/app.js";
import { op, push } from "../support/push.js";
import { goTo, type E2e } from "./support/app.js";
import { screenshot } from "./support/browser.js";

it.override("e2eEnv", { SVC_AI_ALLOW_LOOPBACK: "1" });

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const GOOD_KEY = "sk-standin-good-4e1d";
const WRONG_KEY = "sk-standin-WRONG-0b7c";
const PHONE = { width: 360, height: 780 };

const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("AI settings", () => {
  let standin: Standin;
  let worker: Worker;
  // The keys the stand-in knows; emptied later so it refuses the stored one.
  const keys = [GOOD_KEY];
  it.beforeAll(async ({ e2e }) => {
    standin = await startStandin(compatibleFormat(), { keys });
    // Up (its default scenario is an outage, which a key check meets too).
    standin.next({ do: "ok", object: {} });
    // The stand-in is on loopback over http: the AI address guard lets that through in tests only.
    const { svc } = e2e;
    worker = startExtractionWorker(
      { db: svc.database.db, config: svc.config, store: blobStoreOf(svc.config), logger: pino({ level: "silent" }) },
      { timer: false },
    );
  });
  it.afterAll(async () => {
    await worker?.stop();
    await standin?.close();
  });

  /** A thing captured with a photo through the API, as a device's outbox would send it. */
  async function capture(e2e: E2e, api: HttpClient, loc: string): Promise<void> {
    const res = await fetch(`${e2e.svc.url}/api/v1/files?locationId=${loc}`, {
      method: "POST",
      headers: { origin: e2e.svc.config.publicUrl.origin, cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; "), "content-type": "image/png" },
      body: new Uint8Array(PNG),
    });
    expect(res.status).toBe(201);
    const fileId = ((await res.json()) as { id: string }).id;
    const pushed = await push(api, [op({ name: "thing.capture", locationId: loc, args: { id: uuidv7(), photoFileIds: [fileId] } })]);
    expect(pushed.body.results[0].status).toBe("applied");
  }

  it("a wrong key is refused in words and nothing is saved; the right key saves; a key refused later is named with its date, in English and Arabic at 360 px", async ({
    e2e,
    newPerson,
  }) => {
    const { page, locationId: loc, client } = await newPerson("Kim Keys", "kim", { viewport: PHONE });
    const api = await client();
    const mine = async () => aiSettingsOverviewSchema.parse((await api.get("/api/v1/me/ai-settings")).body).user;

    await goTo(page, "Settings");
    const section = page.getByRole("region", { name: "AI" });
    await section.getByRole("button", { name: "Set up: My own provider" }).click();
    const form = section.getByRole("form", { name: "My own provider" });
    await form.getByRole("combobox").selectOption({ label: "OpenAI-compatible server" });
    await form.getByLabel("Model", { exact: true }).fill("llava-13b");
    await form.getByLabel("Server address", { exact: true }).fill(standin.baseUrl);
    await form.getByLabel("API key", { exact: true }).fill(WRONG_KEY);
    await form.getByRole("button", { name: "Save provider" }).click();

    // Refused by the provider: said in place, and nothing stored.
    const group = section.getByRole("group", { name: "My own provider" });
    await group
      .getByRole("alert")
      .filter({ hasText: "The provider refused this key (HTTP 401), so nothing was saved. Check the key, and that it is for this provider." })
      .waitFor();
    expect(standin.received.at(-1)).toMatchObject({ path: "/v1/models", headers: { authorization: `Bearer ${WRONG_KEY}` } });
    expect(await mine()).toBeNull();
    expect(await fits(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "ai-settings-key-refused-360");

    // The right key: checked with the provider, then saved.
    await form.getByLabel("API key", { exact: true }).fill(GOOD_KEY);
    await form.getByRole("button", { name: "Save provider" }).click();
    await group.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    expect(await group.getByRole("alert").count()).toBe(0);
    expect(standin.received.at(-1)!.headers.authorization).toBe(`Bearer ${GOOD_KEY}`);
    expect(await mine()).toMatchObject({ providerKind: "compatible_api", model: "llava-13b", baseUrl: standin.baseUrl, hasKey: true, keyRefused: null });
    await expect.poll(() => form.getByLabel("API key", { exact: true }).getAttribute("placeholder")).toBe("stored — leave empty to keep");

    // Later the provider stops taking the key: a photo reading meets its 401.
    keys.length = 0;
    await capture(e2e, api, loc);
    await worker.drain();
    expect(standin.received.at(-1)).toMatchObject({ path: "/v1/chat/completions", headers: { authorization: `Bearer ${GOOD_KEY}` } });
    expect(await mine()).toMatchObject({ keyRefused: { status: 401 } });

    await page.reload();
    const notice = group.getByRole("alert").filter({ hasText: /^The provider refused the stored key \(HTTP 401\) on / });
    await notice.waitFor();
    const text = (await notice.textContent())!;
    // The date in words (a month's name and the year), then what it means.
    const year = new Date().getUTCFullYear();
    expect(text).toMatch(new RegExp(`on [A-Z][a-z]{2} \\d{1,2}, ${year}, .+\\. Photos are not read with it until a new key is entered\\.$`));
    expect(await fits(page)).toBeLessThanOrEqual(0);
    await notice.scrollIntoViewIfNeeded();
    await screenshot(page, "ai-settings-stored-key-refused-360");

    // Arabic: the same notice, right to left, and still nothing wider than the phone.
    await page.getByRole("radio", { name: "العربية" }).check();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    const arSection = page.getByRole("region", { name: "الذكاء الاصطناعي" });
    const arNotice = arSection
      .getByRole("group", { name: "مزوّدي الخاص" })
      .getByRole("alert")
      .filter({ hasText: /^رفض المزوّد المفتاح المحفوظ \(HTTP ٤٠١\) في .+\. لن تُقرأ الصور به حتى يُدخَل مفتاح جديد\.$/ });
    await arNotice.waitFor();
    expect(await fits(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "ai-settings-stored-key-refused-arabic-360");
  });
});
