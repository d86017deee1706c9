/**
 * A viewer cannot edit; the second sign-in step asks for an authenticator code; the Arabic layout
 * renders right to left with eastern Arabic digits.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { enableTotp } from "../support/auth.js";
import { freshTotpCode } from "../support/totp.js";
import { freshEmail, goTo, locationIdOf, PASSWORD, signIn, signUp, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

describe("roles, two-factor sign-in and languages", () => {
  it("a viewer sees things but gets no way to change them", async ({ e2e }) => {
    const owner = await e2e.device();
    await signUp(owner.page, "Vera Owner", freshEmail("vera"));
    const locationId = await locationIdOf(owner.page);
    await goTo(owner.page, "Capture");
    await owner.page.getByLabel("Name", { exact: true }).fill("Toolbox");
    await owner.page.getByRole("button", { name: "Save thing" }).click();
    await synced(owner.page);
    await goTo(owner.page, "Members");
    await owner.page.getByLabel("Role", { exact: true }).selectOption({ label: "Viewer" });
    await owner.page.getByRole("button", { name: "Create invitation" }).click();
    const link = await owner.page.getByLabel("Invitation link (shown once)").inputValue();

    const viewer = await e2e.device();
    await signUp(viewer.page, "Victor Viewer", freshEmail("victor"), link);
    await viewer.page.goto(`/l/${locationId}/things`);
    await viewer.page.getByRole("link", { name: /Toolbox/ }).click();
    await viewer.page.getByRole("heading", { name: "Toolbox" }).waitFor();
    await viewer.page.getByText("Viewers can look but not change things here.").waitFor();
    expect(await viewer.page.getByRole("button", { name: "Save changes" }).count()).toBe(0);
    expect(await viewer.page.getByRole("button", { name: "Delete" }).count()).toBe(0);
    await goTo(viewer.page, "Capture");
    expect(await viewer.page.getByRole("button", { name: "Save thing" }).count()).toBe(0);
    await goTo(viewer.page, "Inbox");
    await viewer.page.getByRole("article", { name: "Captured: Toolbox" }).waitFor();
    expect(await viewer.page.getByRole("button", { name: "Accept: Toolbox" }).count()).toBe(0);
  });

  it("signing in with two-factor on asks for the authenticator code before anything else", async ({ e2e }) => {
    const email = freshEmail("tess");
    const setup = e2e.svc.client();
    expect((await setup.post("/api/v1/auth/sign-up", { email, password: PASSWORD, name: "Tess Two" })).status).toBe(200);
    expect((await setup.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const { totpURI } = await enableTotp(setup);

    const { page } = await e2e.device();
    await signIn(page, email);
    await page.getByRole("heading", { name: "Two-step verification" }).waitFor();
    await screenshot(page, "two-factor");
    await page.getByLabel("Authenticator code").fill(await freshTotpCode(totpURI));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    await page.getByRole("heading", { name: "Things" }).waitFor();
  });

  it("the Arabic layout renders right to left, with eastern Arabic digits by default", async ({ e2e }) => {
    const { page } = await e2e.device({ viewport: { width: 1280, height: 800 } });
    await signUp(page, "Amal", freshEmail("amal"));
    await goTo(page, "Capture");
    for (const name of ["مفك براغي", "مطرقة", "منشار"]) {
      await page.getByLabel("Name", { exact: true }).fill(name);
      await page.getByRole("button", { name: "Save thing" }).click();
    }
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(["ar", "rtl"]);
    await page.getByRole("navigation", { name: "القائمة الرئيسية" }).getByRole("link", { name: "الأغراض" }).click();
    await page.getByRole("heading", { name: "الأغراض" }).waitFor();
    // Three is a "few" in Arabic: أغراض, the plural of a few.
    await page.getByText("٣ أغراض").waitFor();
    // The side navigation sits on the right and the text starts from the right.
    const nav = await page.getByRole("navigation", { name: "القائمة الرئيسية" }).boundingBox();
    const main = await page.getByRole("main").boundingBox();
    expect(nav!.x).toBeGreaterThan(main!.x);
    expect(await page.getByRole("main").evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
    await screenshot(page, "things-arabic-desktop");

    await page.getByRole("navigation", { name: "القائمة الرئيسية" }).getByRole("link", { name: "الإعدادات" }).click();
    await page.getByRole("radio", { name: "غربية (123)" }).check();
    await page.getByRole("navigation", { name: "القائمة الرئيسية" }).getByRole("link", { name: "الأغراض" }).click();
    await page.getByText("3 أغراض").waitFor();
  });
});
