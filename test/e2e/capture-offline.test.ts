/**
 * The promise of the app: sign up and sign in, capture three things with the network cut
 * (including a reload while offline, which the service worker answers), then reconnect and find
 * them on the server, photo included.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { goTo, serviceWorkerReady, signIn, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

// A 1x1 PNG: the smallest photo the server accepts (it decides the kind from the bytes).
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("capture with no signal", () => {
  it("signs up, signs out, signs in, captures three things offline across a reload, and syncs them when back online", async ({ newPerson }) => {
    const { context, page, email, locationId, client } = await newPerson("Ada Lovelace", "ada");
    await page.getByRole("heading", { name: "Things" }).waitFor();

    await goTo(page, "Settings");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await screenshot(page, "sign-in");
    await signIn(page, email);
    await page.getByRole("heading", { name: "Things" }).waitFor();
    await serviceWorkerReady(page);

    await context.setOffline(true);
    await goTo(page, "Capture");
    await page.getByLabel("Photo").setInputFiles({ name: "drill.png", mimeType: "image/png", buffer: PNG });
    await page.getByLabel("Name", { exact: true }).fill("Cordless drill");
    await page.getByLabel("Type", { exact: true }).selectOption({ label: "Tool" });
    await page.getByRole("button", { name: "Save thing" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Cordless drill" }).count()).toBe(1);
    await page.getByLabel("Name", { exact: true }).fill("Step ladder");
    await page.getByRole("button", { name: "Save thing" }).click();
    await page.getByText("Saved “Step ladder”").waitFor();

    // A reload with no network: the service worker serves the app, IndexedDB still holds the outbox.
    await page.reload();
    await page.getByRole("heading", { name: "Capture" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Tin of paint");
    await page.getByRole("button", { name: "Save thing" }).click();
    await page.getByText("Saved “Tin of paint”").waitFor();
    await goTo(page, "Things");
    for (const name of ["Cordless drill", "Step ladder", "Tin of paint"]) await page.getByRole("link", { name: new RegExp(name) }).waitFor();
    await expect(page.getByText("Not synced yet").count()).resolves.toBe(3);
    await screenshot(page, "things-offline");
    // Each screen is a chunk of its own: one never opened online comes from the service worker too.
    await goTo(page, "Sync");
    await page.getByRole("heading", { name: "Sync", exact: true }).waitFor();
    await page.getByText(/^\d+ changes waiting$/).waitFor();

    // Nothing reached the server while offline.
    const owner = await client();
    const before = await owner.get(`/api/v1/locations/${locationId}/things`);
    expect(before.body.items).toEqual([]);

    await context.setOffline(false);
    await synced(page);
    const after = await owner.get(`/api/v1/locations/${locationId}/things`);
    expect(after.body.items.map((t: { name: string }) => t.name).sort()).toEqual(["Cordless drill", "Step ladder", "Tin of paint"]);
    const inbox = await owner.get(`/api/v1/inbox?locationId=${locationId}`);
    const drill = inbox.body.items.find((i: { thing?: { name: string } }) => i.thing?.name === "Cordless drill");
    expect(drill.kind).toBe("draft");
    expect(drill.thing.photos).toHaveLength(1);
    await expect(page.getByText("Not synced yet").count()).resolves.toBe(0);
    await screenshot(page, "things-synced");
  });
});
