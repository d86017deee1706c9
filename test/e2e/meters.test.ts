/**
 * Meter readings with no signal: a meter made online, then three readings with photo proofs taken
 * offline (the third lower than the second, which the device warns about), a reload while offline
 * (the service worker serves the app), and back online: the server holds each reading and proof
 * once, and the backwards one waits in the inbox. A box check made in the same offline session
 * (before the reload) reaches the server once too. The Arabic meter page fits a 360 px phone.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { goTo, serviceWorkerReady, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

// A 1x1 PNG: the smallest photo the server accepts (it decides the kind from the bytes).
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

interface ApiReading {
  id: string;
  value: string;
  fileId: string | null;
  status: string;
}

describe("meter readings with no signal", () => {
  it("records three readings with proofs and a box check offline across a reload, syncs each once, and files the backwards one in the inbox", async ({
    newPerson,
  }) => {
    const { context, page, locationId, client } = await newPerson("Meg Watt", "meg");
    await page.getByRole("heading", { name: "Things" }).waitFor();
    await serviceWorkerReady(page);

    const owner = await client();
    const made = await owner.post(`/api/v1/locations/${locationId}/things`, { name: "Fuse box" });
    expect(made.status).toBe(201);
    const thingId: string = made.body.id;
    // A box of spare fuses in the cellar, checked in the same session with no signal.
    const box = await owner.post(`/api/v1/locations/${locationId}/things`, { name: "Fuse crate", isContainer: true });
    const spare = await owner.post(`/api/v1/locations/${locationId}/things`, { name: "Spare fuses", containerId: box.body.id });
    const lamp = await owner.post(`/api/v1/locations/${locationId}/things`, { name: "Cellar lamp", containerId: box.body.id });
    expect([box.status, spare.status, lamp.status]).toEqual([201, 201, 201]);

    // The thing reaches the device through its shape; the meter is made in the app, online.
    await page.goto(`/l/${locationId}/things/${thingId}`);
    await page.getByRole("heading", { name: "Fuse box" }).waitFor();
    await page.getByRole("button", { name: "Add meter" }).click();
    await page.getByLabel("Kind").selectOption({ label: "Electricity" });
    await expect(page.getByLabel("Unit").inputValue()).resolves.toBe("kWh");
    await page.getByLabel("Label").fill("Main meter");
    // A limit outside the spec's bounds is refused on the device, naming the field.
    await page.getByLabel("Remind after (days)").fill("6");
    await page.getByRole("button", { name: "Create meter" }).click();
    await page.getByRole("alert").filter({ hasText: "Remind after must be" }).waitFor();
    await page.getByLabel("Remind after (days)").fill("30");
    await page.getByRole("button", { name: "Create meter" }).click();
    const meterLink = page.getByRole("link", { name: "Meter: Main meter" });
    await meterLink.waitFor();
    await expect(page.getByText("No readings yet").count()).resolves.toBeGreaterThan(0);
    await screenshot(page, "thing-meters");
    await meterLink.click();
    await page.getByRole("heading", { name: "Main meter" }).waitFor();
    const meterId = /\/meters\/([^/]+)$/.exec(new URL(page.url()).pathname)![1]!;
    await synced(page);
    const meter = await owner.get(`/api/v1/meters/${meterId}`);
    expect(meter.status).toBe(200);
    expect(meter.body).toMatchObject({ thingId, kind: "electricity", unit: "kWh", label: "Main meter", nudgeDays: 30 });

    // An edit goes with the version the device saw; the spec's bound is checked first (365 days at most).
    await page.getByRole("button", { name: "Edit meter" }).click();
    const edit = page.getByRole("form", { name: "Edit meter" });
    await edit.getByLabel("Remind after (days)").fill("366");
    await edit.getByRole("button", { name: "Save meter" }).click();
    await edit.getByRole("alert").filter({ hasText: "Remind after must be" }).waitFor();
    await edit.getByLabel("Remind after (days)").fill("365");
    await edit.getByRole("button", { name: "Save meter" }).click();
    await page.getByRole("status").filter({ hasText: "Meter saved." }).waitFor();
    await synced(page);
    const edited = await owner.get(`/api/v1/meters/${meterId}`);
    expect(edited.body).toMatchObject({ nudgeDays: 365, rowVersion: meter.body.rowVersion + 1 });

    await context.setOffline(true);
    const record = async (value: string, file: string) => {
      await page.getByLabel("Reading (kWh)").fill(value);
      await page.getByLabel("Photo proof").setInputFiles({ name: file, mimeType: "image/png", buffer: PNG });
      await page.getByRole("button", { name: "Save reading" }).click();
    };
    await record("1200.5", "first.png");
    await page.getByRole("status").filter({ hasText: "Saved reading 1,200.5 kWh." }).waitFor();
    await record("1250.25", "second.png");
    await page.getByRole("status").filter({ hasText: "Saved reading 1,250.25 kWh." }).waitFor();

    // Still offline: the crate is checked (fuses seen, lamp not here), then back to the meter.
    await page.goto(`/l/${locationId}/things/${box.body.id}/check`);
    await page.getByRole("heading", { name: "Check Fuse crate" }).waitFor();
    await page.getByRole("group", { name: "Spare fuses" }).getByLabel("Seen", { exact: true }).check();
    await page.getByRole("group", { name: "Cellar lamp" }).getByLabel("Not here", { exact: true }).check();
    await page.getByRole("button", { name: "Save check" }).click();
    await page.getByText("Check saved. It goes to the server when there is signal.").waitFor();
    await page.goto(`/l/${locationId}/meters/${meterId}`);

    // A reload with no network: the service worker serves the app, IndexedDB still holds the outbox and the photos.
    await page.reload();
    await page.getByRole("heading", { name: "Main meter" }).waitFor();
    await page.getByLabel("Reading (kWh)").fill("1240");
    await page.getByRole("alert").filter({ hasText: "Out of order: lower than the reading before it" }).filter({ hasText: "(1,250.25 kWh" }).waitFor();
    await page.getByLabel("Photo proof").setInputFiles({ name: "third.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Save reading" }).click();
    await page.getByRole("status").filter({ hasText: "Saved reading 1,240 kWh; it goes to the inbox for review." }).waitFor();

    // Newest first, each marked as waiting, each with its proof from the device's own copy.
    const list = page.getByRole("list", { name: "Readings" });
    await expect.poll(() => list.getByRole("listitem").allInnerTexts()).toHaveLength(3);
    const items = await list.getByRole("listitem").allInnerTexts();
    expect(items.map((t) => t.split(" kWh")[0])).toEqual(["1,240", "1,250.25", "1,200.5"]);
    await expect(list.getByText("Not synced yet").count()).resolves.toBe(3);
    // The device applies the server's rule at once: the backwards reading already waits for review.
    await expect(list.getByRole("listitem").first().getByText("Lower than the reading before it").count()).resolves.toBe(1);
    await expect(list.getByText("Lower than the reading before it").count()).resolves.toBe(1);
    await page.getByText("1 to review").waitFor();
    const proofs = list.getByRole("img", { name: /^Photo proof of / });
    await expect(proofs.count()).resolves.toBe(3);
    for (const src of await proofs.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src))) expect(src).toMatch(/^blob:/);
    await expect(proofs.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0))).resolves.toBe(true);
    await page.getByRole("img", { name: /^3 readings from / }).waitFor();
    await screenshot(page, "meter-offline");

    // Nothing reached the server while offline.
    expect((await owner.get(`/api/v1/meters/${meterId}/readings`)).body.items).toEqual([]);
    expect((await owner.get(`/api/v1/things/${box.body.id}/box-checks`)).body.items).toEqual([]);

    await context.setOffline(false);
    await synced(page);
    const readings = await owner.get<{ items: ApiReading[] }>(`/api/v1/meters/${meterId}/readings`);
    expect(readings.status).toBe(200);
    expect(readings.body.items.map((r) => Number(r.value)).sort((a, b) => a - b)).toEqual([1200.5, 1240, 1250.25]);
    expect(readings.body.items.every((r) => r.fileId)).toBe(true);
    expect(new Set(readings.body.items.map((r) => r.fileId)).size).toBe(3);
    expect(readings.body.items.find((r) => Number(r.value) === 1240)?.status).toBe("review");
    const proofsOnServer = await owner.get<{ items: { readingId: string; fileId: string }[] }>(`/api/v1/meters/${meterId}/proofs`);
    expect(proofsOnServer.status).toBe(200);
    expect(proofsOnServer.body.items).toHaveLength(3);
    expect(new Set(proofsOnServer.body.items.map((p) => p.readingId))).toEqual(new Set(readings.body.items.map((r) => r.id)));
    const file = await owner.get(`/api/v1/files/${proofsOnServer.body.items[0]!.fileId}`);
    expect(file.status).toBe(200);

    // The box check arrived once, with what was found; the lamp is uncertain, the fuses were seen.
    const checks = await owner.get(`/api/v1/things/${box.body.id}/box-checks`);
    expect(checks.body.items).toHaveLength(1);
    expect(checks.body.items[0]).toMatchObject({ containerId: box.body.id, seen: 1, notHere: 1, split: 0, movedIn: 0, by: { displayName: "Meg Watt" } });
    expect((await owner.get(`/api/v1/things/${lamp.body.id}`)).body.derivedState).toContain("uncertain");
    const fuses = await owner.get(`/api/v1/things/${spare.body.id}`);
    expect(fuses.body.derivedState).not.toContain("uncertain");
    expect(fuses.body.lastSeenAt).not.toBeNull();

    const inbox = await owner.get(`/api/v1/inbox?locationId=${locationId}`);
    const readingItems = inbox.body.items.filter((i: { kind: string }) => i.kind === "reading");
    expect(readingItems).toHaveLength(1);
    expect(Number(readingItems[0].reading.value)).toBe(1240);
    expect(readingItems[0].reading.reason).toBe("backwards");
    expect(Number(readingItems[0].reading.neighbours.before.value)).toBe(1250.25);

    // The server's rows replace the device's copies (a txid may confirm an op on the inbox shape a
    // moment before the readings shape brings the row) and agree with what the device showed.
    await expect
      .poll(
        async () => [
          await list.getByRole("listitem").count(),
          await list.getByText("Not synced yet").count(),
          await list.getByText("Lower than the reading before it").count(),
        ],
        {
          timeout: 15_000,
        },
      )
      .toEqual([3, 0, 1]);
    await page.getByText("1 to review").waitFor();

    // The inbox shows the item readably: the meter, the value, why, and the reading before it.
    await goTo(page, "Inbox");
    const card = page.getByRole("article", { name: "Reading to check: Main meter" });
    await card.getByText("1,240 kWh").waitFor({ timeout: 15_000 });
    await card.getByText("Why: Lower than the reading before it").waitFor();
    await card.getByText(/^Before: 1,250\.25 kWh/).waitFor();
    await screenshot(page, "inbox-reading");

    // Dismissing says the reading is wrong: kept on the server, rejected, counting for nothing.
    await card.getByRole("button", { name: "Dismiss: Main meter" }).click();
    await expect.poll(() => card.count()).toBe(0);
    await synced(page);
    const after = await owner.get<{ items: ApiReading[] }>(`/api/v1/meters/${meterId}/readings`);
    expect(after.body.items.map((r) => [Number(r.value), r.status]).sort()).toEqual([
      [1200.5, "ok"],
      [1240, "rejected"],
      [1250.25, "ok"],
    ]);

    // Arabic at 360 px: the meter page renders right to left and nothing spills sideways.
    await page.setViewportSize({ width: 360, height: 780 });
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(`/l/${locationId}/meters/${meterId}`);
    await page.getByRole("heading", { name: "Main meter" }).waitFor();
    await page.getByRole("heading", { name: "القراءات" }).waitFor();
    await page.getByLabel("صورة إثبات").waitFor();
    await page.getByRole("list", { name: "القراءات" }).getByText("١٬٢٤٠ kWh").waitFor();
    await page.getByText("رُفضت في المراجعة").waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "meter-arabic-phone");
  });
});
