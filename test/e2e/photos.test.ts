/**
 * A thing's photos across devices: a photo taken on one phone with no signal shows there at once,
 * then on a second device of the same person (its thing page, its things list and inbox as
 * thumbnails, full size when opened, still there offline); a photo added as the cover and another
 * removed offline on the second device reach the first; a viewer sees the photos but no controls;
 * and the gallery reads right to left in Arabic on a 360-px phone.
 */
import sharp from "sharp";
import type { Locator, Page } from "playwright-core";
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { freshEmail, goTo, locationIdOf, PASSWORD, signIn, signUp, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

const photo = (r: number, g: number, b: number) =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();

/** Every image in `where` has loaded (a broken or missing one has no natural width). */
async function loaded(images: Locator, count: number): Promise<void> {
  await expect.poll(() => images.count()).toBe(count);
  await expect
    .poll(() => images.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)))
    .toBe(true);
}

const thumbIn = (page: Page, name: string) => page.getByRole("link", { name: new RegExp(name) }).locator("img.thumb");

describe("photos on every device", () => {
  it("a photo taken offline on one device is seen on the second; one added and one removed offline there come back", async ({ e2e }) => {
    const [red, blue] = await Promise.all([photo(200, 40, 40), photo(40, 40, 200)]);
    const email = freshEmail("pia");
    const a = await e2e.device();
    await signUp(a.page, "Pia Photo", email);
    const locationId = await locationIdOf(a.page);
    const b = await e2e.device();
    await signIn(b.page, email);
    await b.page.getByRole("heading", { name: "Things" }).waitFor();

    // Device A, no signal: the photo field shows what was taken before it is saved.
    await a.context.setOffline(true);
    await goTo(a.page, "Capture");
    await a.page.getByLabel("Photo").setInputFiles({ name: "drill.jpg", mimeType: "image/jpeg", buffer: red });
    await loaded(a.page.getByRole("img", { name: "Preview of the photo" }), 1);
    await a.page.getByLabel("Name", { exact: true }).fill("Cordless drill");
    await a.page.getByRole("button", { name: "Save thing" }).click();
    await a.page.getByText("Saved “Cordless drill”").waitFor();
    expect(await a.page.getByRole("img", { name: "Preview of the photo" }).count()).toBe(0);
    // The list shows the photo at once, from the device's own copy.
    await goTo(a.page, "Things");
    await loaded(thumbIn(a.page, "Cordless drill"), 1);
    expect(await thumbIn(a.page, "Cordless drill").getAttribute("src")).toMatch(/^blob:/);
    await a.context.setOffline(false);
    await synced(a.page);

    // Device B: a thumbnail in the list and the inbox, the gallery on the thing page, full size when opened.
    await goTo(b.page, "Things");
    await loaded(thumbIn(b.page, "Cordless drill"), 1);
    await goTo(b.page, "Inbox");
    await loaded(b.page.getByRole("article", { name: "Captured: Cordless drill" }).locator("img.thumb"), 1);
    await goTo(b.page, "Things");
    await b.page.getByRole("link", { name: /Cordless drill/ }).click();
    const gallery = b.page.getByRole("region", { name: "Photos" });
    await gallery.getByRole("button", { name: "Open photo 1" }).click();
    await loaded(b.page.getByRole("img", { name: "Photo 1 of Cordless drill" }), 1);
    await screenshot(b.page, "thing-photos");

    // Device B, no signal: what it saw is still there; it adds a photo as the cover and removes the first.
    await b.context.setOffline(true);
    await goTo(b.page, "Things");
    await loaded(thumbIn(b.page, "Cordless drill"), 1);
    await b.page.getByRole("link", { name: /Cordless drill/ }).click();
    await gallery.getByLabel("Add a photo").setInputFiles({ name: "case.jpg", mimeType: "image/jpeg", buffer: blue });
    await loaded(gallery.getByRole("img", { name: "Preview of the photo" }), 1);
    await gallery.getByLabel("Make it the cover").check();
    await gallery.getByRole("button", { name: "Add photo" }).click();
    await gallery.getByText("Photo added.").waitFor();
    await loaded(gallery.locator("img.thumb"), 2);
    b.page.once("dialog", (d) => void d.accept());
    await gallery.getByRole("button", { name: "Remove: Photo 1" }).click();
    await loaded(gallery.locator("img.thumb"), 1);
    expect(await gallery.getByRole("button", { name: /^Make cover/ }).count()).toBe(0);
    await b.context.setOffline(false);
    await synced(b.page);

    // The server holds the change, and device A's page shows it.
    const owner = e2e.svc.client();
    expect((await owner.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const list = await owner.get(`/api/v1/locations/${locationId}/things`);
    const drill = (await owner.get(`/api/v1/things/${list.body.items[0].id}`)).body as { photos: { fileId: string; isCover: boolean }[]; thumbUrl: string };
    expect(drill.photos).toHaveLength(1);
    expect(drill.photos[0]!.isCover).toBe(true);
    expect(drill.thumbUrl).toBe(`/api/v1/files/${drill.photos[0]!.fileId}/thumb`);
    await a.page.getByRole("link", { name: /Cordless drill/ }).click();
    await expect.poll(() => a.page.getByRole("region", { name: "Photos" }).locator("img.thumb").getAttribute("data-file-id")).toBe(drill.photos[0]!.fileId);
  });

  it("a viewer sees the photos and opens one, but gets no way to add, remove or choose the cover", async ({ e2e }) => {
    const owner = await e2e.device();
    await signUp(owner.page, "Omar Owner", freshEmail("omar"));
    const locationId = await locationIdOf(owner.page);
    await goTo(owner.page, "Capture");
    await owner.page.getByLabel("Photo").setInputFiles({ name: "kettle.jpg", mimeType: "image/jpeg", buffer: await photo(60, 160, 60) });
    await owner.page.getByLabel("Name", { exact: true }).fill("Kettle");
    await owner.page.getByRole("button", { name: "Save thing" }).click();
    await synced(owner.page);
    await goTo(owner.page, "Members");
    await owner.page.getByLabel("Role", { exact: true }).selectOption({ label: "Viewer" });
    await owner.page.getByRole("button", { name: "Create invitation" }).click();
    const link = await owner.page.getByLabel("Invitation link (shown once)").inputValue();

    const viewer = await e2e.device();
    await signUp(viewer.page, "Vic Viewer", freshEmail("vic"), link);
    await viewer.page.goto(`/l/${locationId}/things`);
    await loaded(thumbIn(viewer.page, "Kettle"), 1);
    await viewer.page.getByRole("link", { name: /Kettle/ }).click();
    const gallery = viewer.page.getByRole("region", { name: "Photos" });
    await gallery.getByRole("button", { name: "Open photo 1" }).click();
    await loaded(viewer.page.getByRole("img", { name: "Photo 1 of Kettle" }), 1);
    for (const name of ["Add photo", /^Remove/, /^Make cover/]) expect(await gallery.getByRole("button", { name }).count()).toBe(0);
    expect(await gallery.getByLabel("Add a photo").count()).toBe(0);
  });

  it("the gallery in Arabic on a 360-px phone: right to left, Arabic names, nothing wider than the screen", async ({ e2e }) => {
    const email = freshEmail("rana");
    const { page } = await e2e.device({ viewport: { width: 360, height: 780 } });
    await signUp(page, "Rana", email);
    const locationId = await locationIdOf(page);
    // The language switch itself is pinned in roles-and-languages.test.ts.
    await page.evaluate(() => localStorage.setItem("lang", "ar"));
    await page.goto(`/l/${locationId}/capture`);
    await page.getByLabel("صورة").setInputFiles({ name: "lamp.jpg", mimeType: "image/jpeg", buffer: await photo(230, 200, 60) });
    await loaded(page.getByRole("img", { name: "معاينة الصورة" }), 1);
    await page.getByLabel("الاسم", { exact: true }).fill("مصباح");
    await page.getByRole("button", { name: "حفظ الغرض" }).click();
    await page.getByRole("status").filter({ hasText: "مصباح" }).waitFor();
    await page.goto(`/l/${locationId}/things`);
    await loaded(thumbIn(page, "مصباح"), 1);
    await page.getByRole("link", { name: /مصباح/ }).click();
    const gallery = page.getByRole("region", { name: "الصور" });
    await gallery.getByRole("button", { name: "افتح الصورة ١" }).click();
    await loaded(page.getByRole("img", { name: "الصورة ١ من مصباح" }), 1);
    await gallery.getByRole("button", { name: "أضف الصورة" }).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe("rtl");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, "thing-photos-arabic-360");
  });
});
