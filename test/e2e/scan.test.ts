/**
 * Scanning (issue 14): a QR image of a thing's label link, picked as a photo, is decoded in the
 * browser by zxing-wasm (Chromium on Linux has no BarcodeDetector), read offline against the
 * device's store and lands on the thing's page. A typed code and the label link itself do the same.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import QRCode from "qrcode";
import { chromium, type Page } from "playwright-core";
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { freshEmail, goTo, locationIdOf, PASSWORD, serviceWorkerReady, signIn, signUp, synced } from "./support/app.js";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, screenshot, SCREENSHOT_DIR } from "./support/browser.js";

/** Whether the device's store holds a code (the `codes` table of the signed-in user's database). */
function deviceHasCode(page: Page, code: string): Promise<boolean> {
  return page.evaluate(async (wanted) => {
    const open = (name: string) =>
      new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onerror = () => reject(new Error(String(req.error)));
        req.onsuccess = () => resolve(req.result);
      });
    const ask = <T>(req: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onerror = () => reject(new Error(String(req.error)));
        req.onsuccess = () => resolve(req.result);
      });
    const device = await open("inventory-device");
    const user = (await ask(device.transaction("kv").objectStore("kv").get("user"))) as { value?: { id: string } } | undefined;
    if (!user?.value) return false;
    const db = await open(`inventory-${user.value.id}`);
    const rows = (await ask(db.transaction("codes").objectStore("codes").index("code").getAll(wanted))) as unknown[];
    return rows.length > 0;
  }, code);
}

/**
 * A one-frame Y4M video of a QR code (what Chromium's fake camera plays in a loop): black modules on
 * white, 8 pixels a module, centred in 640 by 480, grey chroma.
 */
function qrVideo(text: string): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const [w, h, scale] = [640, 480, 8];
  const side = modules.size * scale;
  const [x0, y0] = [(w - side) / 2, (h - side) / 2];
  const luma = Buffer.alloc(w * h, 235);
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) if (modules.get(Math.floor(y / scale), Math.floor(x / scale))) luma[(y0 + y) * w + x0 + x] = 16;
  const chroma = Buffer.alloc((w / 2) * (h / 2) * 2, 128);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${w} H${h} F10:1 Ip A1:1 C420jpeg\n`), Buffer.from("FRAME\n"), luma, chroma]);
}

describe("scanning a label", () => {
  it("a QR photo of a thing's code opens the thing, with the network off", async ({ newPerson }) => {
    const { page, context, locationId } = await newPerson("Sami Scanner", "sami", { viewport: { width: 360, height: 740 } });
    await serviceWorkerReady(page);
    await goTo(page, "Capture");
    await page.getByLabel("Name", { exact: true }).fill("Red toolbox");
    await page.getByRole("button", { name: "Save thing" }).click();
    await synced(page);
    await goTo(page, "Things");
    await page.getByRole("link", { name: /Red toolbox/ }).click();
    await page.getByRole("heading", { name: "Red toolbox" }).waitFor();
    const thingUrl = new URL(page.url()).pathname;
    expect(thingUrl).toMatch(new RegExp(`^/l/${locationId}/things/[0-9a-f-]{36}$`));

    // The code the database gave the thing, as the page prints it (two groups of three).
    const codeCell = page.getByRole("region", { name: "Code and sightings" }).locator("dd.code");
    await expect.poll(() => codeCell.textContent(), { timeout: 15_000 }).toMatch(/^[2-9A-Z]{3}-[2-9A-Z]{3}$/);
    const printed = (await codeCell.textContent())!;
    const code = printed.replace("-", "");
    await screenshot(page, "thing-code");

    // Offline: the decoder (its .wasm from our origin, precached) and the lookup are on the device.
    await context.setOffline(true);
    await page.getByRole("link", { name: "Scan", exact: true }).click();
    await page.getByRole("heading", { name: "Scan" }).waitFor();
    const png = await QRCode.toBuffer(`https://labels.example.test/c/${code}`);
    await page.getByLabel("Scan from a photo").setInputFiles({ name: "label.png", mimeType: "image/png", buffer: png });
    await page.waitForURL((url) => url.pathname === thingUrl, { timeout: 20_000 });
    await page.getByRole("heading", { name: "Red toolbox" }).waitFor();

    // A photo with no code in it says so and stays on the scan screen.
    await page.getByRole("link", { name: "Scan", exact: true }).click();
    const blank = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    await page.getByLabel("Scan from a photo").setInputFiles({ name: "blank.png", mimeType: "image/png", buffer: blank });
    await page.getByText("No code found in this photo.").waitFor();

    // Typed as people type: lower case, with the dash.
    await page.getByLabel("Code or text").fill(printed.toLowerCase());
    await page.getByRole("button", { name: "Look up" }).click();
    await page.waitForURL((url) => url.pathname === thingUrl);

    // A code nobody has: the device says it knows nothing of it (offline, it cannot ask).
    await page.getByRole("link", { name: "Scan", exact: true }).click();
    await page.getByLabel("Code or text").fill("ZZZ-ZZZ");
    await page.getByRole("button", { name: "Look up" }).click();
    await page.getByText("This device knows nothing of ZZZ-ZZZ.", { exact: false }).waitFor();

    // The label's link itself (what a phone's camera app opens) lands on the thing too.
    await context.setOffline(false);
    await page.goto(`/c/${code.toLowerCase()}`);
    await page.waitForURL((url) => url.pathname === thingUrl, { timeout: 15_000 });
    await page.getByRole("heading", { name: "Red toolbox" }).waitFor();
  });

  it("an admin prints labels; scanning a free one claims it for a box, which then answers to it", async ({ e2e, newPerson }) => {
    const { page, context, locationId, client } = await newPerson("Lara Labels", "lara", { viewport: { width: 360, height: 740 } });
    const owner = await client();
    const crate = (await owner.post(`/api/v1/locations/${locationId}/things`, { name: "Blue crate", isContainer: true })).body as { id: string };

    await page.goto(`/l/${locationId}/things`);
    await page.getByRole("link", { name: "Scan", exact: true }).click();
    await page.getByRole("link", { name: "Label sheets" }).click();
    await page.getByLabel("How many labels").fill("201");
    await page.getByRole("button", { name: "Print labels" }).click();
    await page.getByText("From 1 to 200 labels.").waitFor();
    await page.getByLabel("How many labels").fill("3");
    await page.getByRole("button", { name: "Print labels" }).click();
    await page.getByText("3 labels ready.").waitFor();
    const pdf = await context.request.get((await page.getByRole("link", { name: "Open the PDF" }).getAttribute("href"))!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toMatch(/^application\/pdf/);
    await page.getByRole("region", { name: "Printed sheets" }).getByText("0 of 3 used").waitFor();
    await screenshot(page, "label-sheets");
    const sheets = (await owner.get(`/api/v1/locations/${locationId}/label-sheets`)).body as { items: { codes: string[] }[] };
    const [label] = sheets.items[0]!.codes;

    // The label's QR, scanned from a photo: nothing holds it yet, so the app offers to claim it.
    await page.getByRole("link", { name: "Scan", exact: true }).click();
    await page
      .getByLabel("Scan from a photo")
      .setInputFiles({ name: "label.png", mimeType: "image/png", buffer: await QRCode.toBuffer(`${e2e.svc.url}/c/${label}`) });
    await page.getByRole("heading", { name: `Label ${label!.slice(0, 3)}-${label!.slice(3)} is not on anything yet` }).waitFor();
    await page.getByLabel("Use this label for").selectOption({ label: "Blue crate" });
    await page.getByRole("button", { name: "Use this label" }).click();
    await page.waitForURL((url) => url.pathname === `/l/${locationId}/things/${crate.id}`);
    const codeCell = page.getByRole("region", { name: "Code and sightings" }).locator("dd.code");
    await expect.poll(() => codeCell.textContent()).toBe(`${label!.slice(0, 3)}-${label!.slice(3)}`);
    await synced(page);
    expect((await owner.get(`/api/v1/codes/${label}`)).body).toEqual({ kind: "thing", id: crate.id });

    // The label's link opens the box from now on; in Arabic the header still fits a 360 px phone.
    await page.goto(`/c/${label}`);
    await page.waitForURL((url) => url.pathname === `/l/${locationId}/things/${crate.id}`);
    await page.evaluate(() => localStorage.setItem("lang", "ar"));
    await page.reload();
    await page.getByRole("link", { name: "تفقّد هذا الصندوق" }).waitFor();
    await page.getByRole("link", { name: "مسح", exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, "box-page-ar");
  });

  it("one label claimed for two boxes by two phones offline: the first holds it, the second is an inbox item to decide", async ({ e2e }) => {
    const a = await e2e.device();
    const email = freshEmail("cleo");
    await signUp(a.page, "Cleo Owner", email);
    const locationId = await locationIdOf(a.page);
    const owner = e2e.svc.client();
    expect((await owner.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const box = async (name: string) => ((await owner.post(`/api/v1/locations/${locationId}/things`, { name, isContainer: true })).body as { id: string }).id;
    const [one, two] = [await box("Box one"), await box("Box two")];
    const sheet = await owner.post(`/api/v1/locations/${locationId}/label-sheets`, { count: 1 });
    expect(sheet.status).toBe(201);
    const label = (sheet.body as { codes: string[] }).codes[0]!;
    const printed = `${label.slice(0, 3)}-${label.slice(3)}`;

    await goTo(a.page, "Members");
    await a.page.getByLabel("Role", { exact: true }).selectOption({ label: "Member" });
    await a.page.getByRole("button", { name: "Create invitation" }).click();
    const b = await e2e.device();
    await signUp(b.page, "Ravi Member", freshEmail("ravi"), await a.page.getByLabel("Invitation link (shown once)").inputValue());

    for (const [d, name] of [
      [a, "Box one"],
      [b, "Box two"],
    ] as const) {
      await d.page.goto(`/l/${locationId}/things`);
      await d.page.getByRole("link", { name: "Box two" }).waitFor();
      await serviceWorkerReady(d.page);
      await d.page.getByRole("link", { name: "Scan", exact: true }).click();
      // Offline, the device must already hold the printed label (the codes shape, brought in when the app starts).
      await expect.poll(() => deviceHasCode(d.page, label), { timeout: 45_000, interval: 500 }).toBe(true);
      await d.context.setOffline(true);
      await d.page.getByLabel("Code or text").fill(printed);
      await d.page.getByRole("button", { name: "Look up" }).click();
      await d.page.getByLabel("Use this label for").selectOption({ label: name });
      await d.page.getByRole("button", { name: "Use this label" }).click();
      await d.page.getByRole("heading", { name }).waitFor();
    }

    await a.context.setOffline(false);
    await synced(a.page);
    await b.context.setOffline(false);
    await synced(b.page);
    expect((await owner.get(`/api/v1/codes/${label}`)).body).toEqual({ kind: "thing", id: one });

    // The owner decides in the inbox: the label goes to the second box.
    await a.page.goto(`/l/${locationId}/inbox`);
    const item = a.page.getByRole("article", { name: `Label claimed twice: ${printed}` });
    await item.getByText(`Label ${printed} was claimed for`).waitFor({ timeout: 15_000 });
    await item.getByRole("link", { name: "Box one" }).waitFor();
    await screenshot(a.page, "inbox-label-claim");
    await item.getByRole("button", { name: "Give it to Box two" }).click();
    await synced(a.page);
    await expect.poll(async () => (await owner.get(`/api/v1/codes/${label}`)).body, { timeout: 15_000 }).toEqual({ kind: "thing", id: two });
    await expect.poll(() => item.count()).toBe(0);
  });

  it("the camera reads a label and opens the thing", async ({ e2e }) => {
    const email = freshEmail("cam");
    const c = e2e.svc.client();
    expect((await c.post("/api/v1/auth/sign-up", { email, password: PASSWORD, name: "Cam Era" })).status).toBe(200);
    expect((await c.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const locationId = ((await c.get("/api/v1/locations")).body as { items: { id: string }[] }).items[0]!.id;
    const made = await c.post(`/api/v1/locations/${locationId}/things`, { name: "Green bin" });
    expect(made.status).toBe(201);
    const { id, shortCode } = made.body as { id: string; shortCode: string };

    // Chromium's fake camera plays a file: this one shows the thing's label.
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const video = path.join(SCREENSHOT_DIR, `label-${shortCode}.y4m`);
    writeFileSync(video, qrVideo(`${e2e.svc.url}/c/${shortCode}`));
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_FLAGS, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", `--use-file-for-fake-video-capture=${video}`],
    });
    try {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, baseURL: e2e.svc.url });
      await context.grantPermissions(["camera"]);
      const page = await context.newPage();
      await signIn(page, email);
      await page.getByRole("navigation", { name: "Main" }).waitFor();
      await page.goto("/scan");
      await page.getByRole("button", { name: "Use the camera" }).click();
      await page.waitForURL((url) => url.pathname === `/l/${locationId}/things/${id}`, { timeout: 20_000 });
      await page.getByRole("heading", { name: "Green bin" }).waitFor();
    } finally {
      await browser.close();
    }
  });
});
