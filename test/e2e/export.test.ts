/**
 * Exporting a location from the web app: the owner opens the export screen from Settings, starts
 * an export, watches its progress bar follow the job to the end, and downloads a zip. The screen
 * in Arabic at 360 px does not overflow, and offline it says an export needs a connection.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobStoreOf } from "../../server/modules/files/blob-store.js";
import { exportDirOf, startExportWorker, type ExportWorker } from "../../server/modules/exports/worker.js";
import { freshEmail, goTo, locationIdOf, PASSWORD, signUp, startE2e, type E2e } from "./support/app.js";
import { screenshot } from "./support/browser.js";

describe("export screen", () => {
  let e2e: E2e;
  let worker: ExportWorker;
  beforeAll(async () => {
    e2e = await startE2e();
    const { svc } = e2e;
    // The job as the server runs it, slowed per page so the progress bar can be seen moving.
    worker = startExportWorker({
      db: svc.database.db,
      store: blobStoreOf(svc.config),
      dir: exportDirOf(svc.config.dataDir),
      logger: pino({ level: "silent" }),
      origin: svc.config.publicUrl.origin,
      pollMs: 200,
      onBeat: () => new Promise((r) => setTimeout(r, 250)),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await e2e?.close();
  });

  it("starts an export, follows its progress to the end and downloads the zip; Arabic at 360 px fits", async () => {
    const { page, context } = await e2e.device({ viewport: { width: 360, height: 740 } });
    const email = freshEmail("exa");
    await signUp(page, "Ex Porter", email);
    await page.getByRole("heading", { name: "Things" }).waitFor();
    const locationId = await locationIdOf(page);
    const owner = e2e.svc.client();
    expect((await owner.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    for (const name of ["Kettle", "Lamp", "Chair"]) expect((await owner.post(`/api/v1/locations/${locationId}/things`, { name })).status).toBe(201);

    await goTo(page, "Settings");
    await page.getByRole("link", { name: "Export this location" }).click();
    await page.getByRole("heading", { name: "Export" }).waitFor();
    await page.getByLabel("History of changes").check();
    await page.getByRole("button", { name: "Start export" }).click();
    // The bar follows the job: first running with a count, then gone when the file is ready.
    await page.getByText(/Exporting: \d+ of \d+/).waitFor({ timeout: 30_000 });
    expect(await page.locator(".export-item progress").count()).toBe(1);
    const download = page.getByRole("link", { name: "Download" });
    await download.waitFor({ timeout: 60_000 });
    expect(await page.locator(".export-item progress").count()).toBe(0);
    const href = await download.getAttribute("href");
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    const bytes = await res.body();
    expect(bytes.subarray(0, 4).toString("hex")).toBe("504b0304");
    const rec = (await owner.get(`/api/v1/exports/${href!.split("/")[4]}`)).body;
    expect(rec).toMatchObject({ status: "succeeded", bytes: bytes.length, options: { history: true } });

    // Arabic at 360 px: nothing wider than the screen.
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(`/l/${locationId}/export`);
    await page.getByRole("heading", { name: "تصدير" }).waitFor();
    await page.getByRole("link", { name: "تنزيل" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "export-ar-360");

    // Offline: the screen says so and does not offer to start one.
    await context.setOffline(true);
    await page.evaluate(() => window.dispatchEvent(new Event("offline")));
    await page.getByText("التصدير يحتاج إلى اتصال.").waitFor();
    expect(await page.getByRole("button", { name: "ابدأ التصدير" }).isDisabled()).toBe(true);
  });
});
