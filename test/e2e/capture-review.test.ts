/**
 * Issue 19, points 6 and 7 in the app: what the device can know is refused at once (a box that
 * still holds things, offline too), "Accept all" clears captured drafts in one go offline, and
 * "My own captures go straight in" makes an offline capture an active thing once it syncs.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import type { Page } from "playwright-core";
import { goTo, serviceWorkerReady, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

async function capture(page: Page, name: string) {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Save thing" }).click();
  await page.getByText(`Saved “${name}”`).waitFor();
}

/** Ops waiting in this device's outbox. */
const outboxCount = (page: Page) =>
  page.evaluate(async () => {
    const dbs = await indexedDB.databases();
    const name = dbs.map((d) => d.name).find((n) => n?.startsWith("inventory-") && n !== "inventory-device");
    return new Promise<number>((resolve) => {
      const req = indexedDB.open(name!);
      req.onsuccess = () => {
        const count = req.result.transaction("outbox").objectStore("outbox").count();
        count.onsuccess = () => resolve(count.result);
      };
    });
  });

describe("capture review and refusals", () => {
  it("refuses at once, offline, to delete a box that still holds a thing, and queues nothing", async ({ newPerson }) => {
    const { context, page, locationId, client } = await newPerson("Bea Boxes", "bea");
    const api = await client();
    const box = await api.post(`/api/v1/locations/${locationId}/things`, { name: "Red box", isContainer: true });
    expect(box.status).toBe(201);
    expect((await api.post(`/api/v1/locations/${locationId}/things`, { name: "Spanner", containerId: box.body.id })).status).toBe(201);
    await goTo(page, "Things");
    await page.getByRole("link", { name: /Spanner/ }).waitFor();
    await serviceWorkerReady(page);

    await context.setOffline(true);
    await page.getByRole("link", { name: /^Red box/ }).click();
    await page.getByRole("heading", { name: "Red box" }).waitFor();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "It still holds things: move them elsewhere first." }).waitFor();
    await screenshot(page, "delete-box-refused");
    // Still on the box's page, nothing queued, nothing to come back later as a drop.
    await page.getByRole("heading", { name: "Red box" }).waitFor();
    expect(await outboxCount(page)).toBe(0);
    await context.setOffline(false);
  });

  it("DR6 offers Re-apply of a refused box delete only once the box is empty again", async ({ newPerson }) => {
    const { context, page, locationId, client } = await newPerson("Ria Reapply", "ria");
    const api = await client();
    const box = await api.post(`/api/v1/locations/${locationId}/things`, { name: "Blue box", isContainer: true });
    await goTo(page, "Things");
    await serviceWorkerReady(page);
    await page.getByRole("link", { name: /^Blue box/ }).click();
    await page.getByRole("heading", { name: "Blue box" }).waitFor();

    // Empty as this device sees it, so the delete is queued offline; meanwhile a hammer goes in elsewhere.
    await context.setOffline(true);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("heading", { name: "Things" }).waitFor();
    const hammer = await api.post(`/api/v1/locations/${locationId}/things`, { name: "Hammer", containerId: box.body.id });
    expect(hammer.status).toBe(201);
    await context.setOffline(false);
    await synced(page);

    await goTo(page, "Inbox");
    const drop = page.getByRole("article", { name: "Change not applied: Blue box" });
    await drop.getByText("Sending it again would meet the same answer", { exact: false }).waitFor();
    expect(await drop.getByRole("button", { name: "Re-apply: Blue box" }).count()).toBe(0);
    await drop.getByRole("button", { name: "Dismiss: Blue box" }).waitFor();
    await screenshot(page, "inbox-drop-no-reapply");

    // Once the hammer is gone, the same item offers Re-apply, and it succeeds.
    expect((await api.request("DELETE", `/api/v1/things/${hammer.body.id}`, { rowVersion: hammer.body.rowVersion })).status).toBe(200);
    await drop.getByRole("button", { name: "Re-apply: Blue box" }).click();
    await synced(page);
    expect((await api.get(`/api/v1/things/${box.body.id}`)).status).toBe(404);
  });

  it("accepts all captured drafts at once, offline, and the server applies each", async ({ newPerson }) => {
    const { context, page, locationId, client } = await newPerson("Abe Accept", "abe");
    await serviceWorkerReady(page);
    await context.setOffline(true);
    await goTo(page, "Capture");
    for (const name of ["Jar of nails", "Paint brush", "Torch"]) await capture(page, name);
    await goTo(page, "Inbox");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Accept all captures (3)" }).click();
    await page.getByRole("status").filter({ hasText: "Accepted: 3." }).waitFor();
    await page.getByText("Nothing to review.").waitFor();
    await screenshot(page, "inbox-accepted-all");

    await context.setOffline(false);
    await synced(page);
    const api = await client();
    const things = (await api.get(`/api/v1/locations/${locationId}/things`)).body.items as { name: string; lifecycle: string }[];
    expect(things.map((t) => [t.name, t.lifecycle]).sort()).toEqual([
      ["Jar of nails", "active"],
      ["Paint brush", "active"],
      ["Torch", "active"],
    ]);
    expect((await api.get(`/api/v1/inbox?locationId=${locationId}`)).body.items).toEqual([]);
  });

  it("with 'My own captures go straight in', an offline capture never waits in the inbox and arrives active", async ({ newPerson }) => {
    const { context, page, locationId, client } = await newPerson("Sol Straight", "sol");
    await serviceWorkerReady(page);
    await goTo(page, "Capture");
    await page.getByLabel("My own captures go straight in").check();
    await page.getByRole("status").filter({ hasText: "Saved for all your devices." }).waitFor();

    await context.setOffline(true);
    await capture(page, "Garden hose");
    await goTo(page, "Inbox");
    await page.getByText("Nothing to review.").waitFor();
    await expect(page.getByLabel("My own captures go straight in").isDisabled()).resolves.toBe(true);
    await screenshot(page, "inbox-straight-in-offline");

    await context.setOffline(false);
    await synced(page);
    const api = await client();
    const [hose] = (await api.get(`/api/v1/locations/${locationId}/things`)).body.items as { id: string; name: string; lifecycle: string }[];
    expect(hose).toMatchObject({ name: "Garden hose", lifecycle: "active" });
    expect((await api.get(`/api/v1/inbox?locationId=${locationId}`)).body.items).toEqual([]);
    const history = (await api.get(`/api/v1/things/${hose!.id}/history`)).body.items as { summary: string }[];
    expect(history.map((h) => h.summary)).toContain("Accepted Garden hose from the inbox");

    // The setting reads in Arabic too.
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(`/l/${locationId}/capture`);
    // The box renders before the device has read its kept value (unchecked and disabled until then).
    const straightIn = page.getByLabel("ما ألتقطه بنفسي يُضاف مباشرة");
    await straightIn.waitFor();
    await expect.poll(() => straightIn.isChecked(), { timeout: 10_000 }).toBe(true);
  });
});
