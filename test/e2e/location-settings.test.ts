/**
 * A location's settings in Chromium: viewers seeing money, who may reveal secret fields and the
 * name, each saved as it is changed; then ownership handed to another member with the name typed,
 * after which the owner's acts leave the screen.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { freshEmail, PASSWORD, signUp } from "./support/app.js";

describe("location settings", () => {
  it("an owner changes a location's settings and hands it to another member", async ({ e2e }) => {
    const { page } = await e2e.device();
    const email = freshEmail("sam");
    await signUp(page, "Sam Settings", email);
    await page.getByRole("heading", { name: "Things" }).waitFor();
    const owner = e2e.svc.client();
    expect((await owner.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const shed = (await owner.post("/api/v1/locations", { name: "Shared Shed" })).body.id as string;
    const invite = await owner.post(`/api/v1/locations/${shed}/invites`, { role: "member" });
    const heir = await e2e.svc.signedIn("Hana Heir");
    expect((await heir.post("/api/v1/invites/accept", { token: invite.body.token })).status).toBe(200);
    const settings = async () => (await owner.get(`/api/v1/locations/${shed}`)).body;

    await page.goto(`/l/${shed}/settings`);
    await page.getByRole("heading", { name: "Location settings" }).waitFor();
    await page.getByRole("checkbox", { name: "Viewers see prices and values" }).check();
    await expect.poll(async () => (await settings()).viewersSeeMoney).toBe(true);
    await page.getByRole("group", { name: "Who may reveal secret fields" }).getByRole("checkbox", { name: /admin/i }).check();
    await expect.poll(async () => (await settings()).secretRevealRoles).toEqual(expect.arrayContaining(["owner", "admin"]));
    await page.getByLabel("Name", { exact: true }).fill("Garden Shed");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await settings()).name).toBe("Garden Shed");

    // The transfer needs a member chosen and the (new) name typed.
    const transfer = page.getByRole("button", { name: "Transfer" });
    await page.getByRole("combobox", { name: "New owner" }).selectOption({ label: "Hana Heir" });
    await page.getByLabel("Type the location’s name to confirm the transfer").fill("Shared Shed");
    await expect(transfer.isDisabled()).resolves.toBe(true);
    await page.getByLabel("Type the location’s name to confirm the transfer").fill("Garden Shed");
    await transfer.click();
    await page.getByText("Hana Heir is the owner now.").waitFor();
    expect((await settings()).role).toBe("admin");
    expect((await heir.get(`/api/v1/locations/${shed}`)).body.role).toBe("owner");
    // An admin now: the owner's acts are gone from the screen.
    await expect(page.getByRole("button", { name: "Delete location" }).count()).resolves.toBe(0);
    await expect(page.getByRole("checkbox", { name: "Viewers see prices and values" }).isChecked()).resolves.toBe(true);
  });
});
