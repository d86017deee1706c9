/**
 * Moves (issue "moves-loans"): a move of three boxes to a second location of the same owner. In
 * the truck, offline, the mover scan-loads all three by typing their codes; back online the server
 * has them in transit. One is unpacked in the new flat: its things are there with their history;
 * the other two stay in transit. The mover's screen in Arabic at 360 px does not overflow.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { goTo, serviceWorkerReady, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

describe("moves", () => {
  it("three boxes scan-loaded offline, one unpacked in the target with its things and history, two still in transit", async ({ newPerson }) => {
    const { page, context, locationId, client } = await newPerson("Mo Mover", "mover", { viewport: { width: 360, height: 740 } });

    const api = await client();
    const target = (await api.post("/api/v1/locations", { name: "New flat" })).body.id as string;
    expect((await api.post(`/api/v1/locations/${target}/places`, { name: "Kitchen" })).status).toBe(201);
    const make = async (body: Record<string, unknown>) => {
      const res = await api.post(`/api/v1/locations/${locationId}/things`, body);
      expect(res.status).toBe(201);
      return res.body as { id: string; shortCode: string };
    };
    const boxes = [
      await make({ name: "Box A", isContainer: true }),
      await make({ name: "Box B", isContainer: true }),
      await make({ name: "Box C", isContainer: true }),
    ];
    const kettle = await make({ name: "Kettle", containerId: boxes[0]!.id });
    expect((await api.patch(`/api/v1/things/${kettle.id}`, { description: "Blue", rowVersion: 1 })).status).toBe(200);

    // Start the move from the Places screen's link, to the new flat.
    await page.goto(`/l/${locationId}/places`);
    await page.getByRole("link", { name: "Moves" }).click();
    await page.getByRole("heading", { name: "Moves" }).waitFor();
    await page.getByLabel("Name of the move").fill("Moving house");
    await page.getByRole("option", { name: "New flat" }).waitFor({ state: "attached" });
    await page.getByLabel("Moving to").selectOption({ label: "New flat" });
    await page.getByRole("button", { name: "Start move" }).click();
    await page.getByRole("heading", { name: "Moving house" }).waitFor();
    for (const name of ["Box A", "Box B", "Box C"]) {
      await page.getByRole("option", { name }).waitFor({ state: "attached" });
      await page.getByLabel("Container").selectOption({ label: name });
      await page.getByRole("button", { name: "Add box" }).click();
    }
    await page.getByText("0 of 3 in transit").waitFor();
    await synced(page);
    const [move] = (await api.get(`/api/v1/locations/${locationId}/moves`)).body.items as { id: string; boxes: { containerId: string; number: number }[] }[];
    expect(move!.boxes.map((b) => b.containerId)).toEqual(boxes.map((b) => b.id));
    await page.getByText("Box 3").first().waitFor();

    // In the truck: no signal. Typed codes resolve on the device; the boxes change at once.
    await serviceWorkerReady(page);
    await context.setOffline(true);
    for (const [i, box] of boxes.entries()) {
      await page.getByLabel("Box code").fill(box.shortCode);
      await page.getByRole("button", { name: "Scan", exact: true }).click();
      await page.getByText(`Box ${i + 1} loaded.`).waitFor();
    }
    // The same scan twice is no error.
    await page.getByLabel("Box code").fill(boxes[0]!.shortCode);
    await page.getByRole("button", { name: "Scan", exact: true }).click();
    await page.getByText("Box 1 was already In transit.").waitFor();
    await page.getByText("3 of 3 in transit").waitFor();
    await screenshot(page, "move-offline");

    await context.setOffline(false);
    await synced(page);
    const loaded = (await api.get(`/api/v1/moves/${move!.id}`)).body as { boxes: { state: string }[]; counts: Record<string, number> };
    expect(loaded.boxes.map((b) => b.state)).toEqual(["in_transit", "in_transit", "in_transit"]);

    // At the new flat: unpack box 1.
    await page.getByLabel("Unpack").check();
    await page.getByLabel("Box code").fill(boxes[0]!.shortCode);
    await page.getByRole("button", { name: "Scan", exact: true }).click();
    await page.getByText("Box 1 unpacked.").waitFor();
    await synced(page);
    const after = (await api.get(`/api/v1/moves/${move!.id}`)).body as { boxes: { state: string }[]; counts: Record<string, number> };
    expect(after.counts).toEqual({ packed: 0, in_transit: 2, unpacked: 1, total: 3 });
    expect(after.boxes.map((b) => b.state)).toEqual(["unpacked", "in_transit", "in_transit"]);
    for (const id of [boxes[0]!.id, kettle.id]) expect((await api.get(`/api/v1/things/${id}`)).body.locationId).toBe(target);
    for (const b of boxes.slice(1)) expect((await api.get(`/api/v1/things/${b.id}`)).body.locationId).toBe(locationId);
    const history = (await api.get(`/api/v1/things/${kettle.id}/history`)).body.items as { summaryKey: string; movedInFromElsewhere?: boolean }[];
    expect(history.map((h) => h.summaryKey)).toEqual(["thing.moved_location", "thing.updated", "thing.created"]);
    expect(history[0]!.movedInFromElsewhere).toBe(true);
    await page.getByText("2 of 3 in transit, 1 unpacked, 0 packed").waitFor();

    // The mover's screen in Arabic, at 360 px: nothing wider than the screen.
    const movePath = new URL(page.url()).pathname;
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(movePath);
    await page.getByRole("heading", { name: "Moving house" }).waitFor();
    await page.getByText("امسح صندوقًا").waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "move-ar-360");
  });
});
