/**
 * The inventory report form: asked for from the Things screen's link, followed until done (the
 * worker runs in the test's service), the download link serves the PDF; offline the form says it
 * needs a connection; in Arabic at 360 px nothing is wider than the screen.
 */
import pino from "pino";
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { blobStoreOf } from "../../server/modules/files/blob-store.js";
import { createMailer } from "../../server/mail/mailer.js";
import { startReportWorker, type ReportWorker } from "../../server/modules/reports/worker.js";
import { goTo } from "./support/app.js";
import { screenshot } from "./support/browser.js";

describe("inventory report form", () => {
  let worker: ReportWorker;
  it.beforeAll(async ({ e2e }) => {
    const logger = pino({ level: "silent" });
    const { svc } = e2e;
    worker = startReportWorker({
      db: svc.database.db,
      config: svc.config,
      store: blobStoreOf(svc.config),
      mailer: createMailer(svc.config, logger),
      logger,
      pollMs: 300,
    });
  });
  it.afterAll(async () => {
    await worker?.stop();
  });

  it("asks for a report, follows it until done, downloads the PDF; offline it needs a connection; Arabic at 360 px fits", async ({ newPerson }) => {
    const { context, page, locationId, client } = await newPerson("Rita Report", "rita", { viewport: { width: 360, height: 740 } });
    await page.getByRole("heading", { name: "Things" }).waitFor();
    const owner = await client();
    const shed = await owner.post(`/api/v1/locations/${locationId}/places`, { name: "Garden shed" });
    expect(shed.status).toBe(201);
    expect((await owner.post(`/api/v1/locations/${locationId}/things`, { name: "Lawn mower", placeId: shed.body.id })).status).toBe(201);

    await page.getByRole("link", { name: "Report" }).click();
    await page.getByRole("heading", { name: "Inventory report" }).waitFor();
    // The place arrives through sync; ticking it narrows the report to it.
    await page.getByLabel("Garden shed").waitFor({ timeout: 60_000 });
    await page.getByLabel("Garden shed").check();
    await page.getByLabel("QR codes").uncheck();
    await page.getByRole("button", { name: "Make report" }).click();
    const status = page.getByRole("status");
    await status.filter({ hasText: "The report is ready." }).waitFor({ timeout: 30_000 });
    const link = page.getByRole("link", { name: "Download the PDF" });
    const href = await link.getAttribute("href");
    expect(href).toMatch(/^\/api\/v1\/reports\/[0-9a-f-]{36}\/file$/);
    // The link works in the page's own session.
    const got = await page.evaluate(async (url) => {
      const res = await fetch(url);
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { status: res.status, type: res.headers.get("content-type"), head: String.fromCharCode(...bytes.slice(0, 5)) };
    }, href!);
    expect(got).toEqual({ status: 200, type: "application/pdf", head: "%PDF-" });
    // The job the form asked for carries its choices.
    const id = href!.split("/")[4]!;
    const state = await page.evaluate(async (u) => (await fetch(u)).json(), `/api/v1/reports/${id}`);
    expect(state).toMatchObject({ status: "done", locationId });
    await screenshot(page, "report-en-360");
    // The mailed link opens the screen on that report.
    await page.goto(`/l/${locationId}/report?id=${id}`);
    await page.getByRole("status").filter({ hasText: "The report is ready." }).waitFor();
    await expect(page.getByRole("link", { name: "Download the PDF" }).getAttribute("href")).resolves.toBe(href);

    // Offline: the form says so and cannot be sent.
    await context.setOffline(true);
    await page.getByText("Making a report needs a connection.").waitFor();
    await expect(page.getByRole("button", { name: "Make report" }).isDisabled()).resolves.toBe(true);
    await context.setOffline(false);

    // Arabic at 360 px: nothing wider than the screen.
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(`/l/${locationId}/report`);
    await page.getByRole("heading", { name: "تقرير الجرد" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    await page.getByRole("button", { name: "إعداد التقرير" }).click();
    await page.getByRole("status").filter({ hasText: "التقرير جاهز." }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "report-ar-360");
  });
});
