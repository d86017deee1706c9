/**
 * Live on every screen (sync/SPEC.md SH11): one person on two devices. A meter reading and a loan
 * made on the first show on the second, open on the same screens, without a reload, well before
 * the minute's catch-up would have brought them; the second device holds the one wake stream and
 * no live shape request.
 */
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { e2eTest as it } from "./support/fixtures.js";
import { signIn, synced } from "./support/app.js";
import { op, push } from "../support/push.js";

/** Far below the minute's catch-up (60 s), far above the ~1 s a wake takes, for a loaded CI machine. */
const ARRIVES_MS = 15_000;

describe("live on every screen", () => {
  it("a reading and a loan made on one device appear on an open second device without a reload", async ({ e2e, newPerson }) => {
    const a = await newPerson("Rita Reader", "rita");
    const owner = await a.client();
    const meterThing = await owner.post(`/api/v1/locations/${a.locationId}/things`, { name: "House supply" });
    const ladder = await owner.post(`/api/v1/locations/${a.locationId}/things`, { name: "Ladder" });
    expect([meterThing.status, ladder.status]).toEqual([201, 201]);
    const meterId = uuidv7();
    const made = await push(owner, [
      op({
        name: "meter.create",
        locationId: a.locationId,
        args: { id: meterId, thingId: meterThing.body.id, kind: "electricity", unit: "kWh", label: "Main meter" },
      }),
    ]);
    expect(made.body.results[0].status).toBe("applied");

    // The second device: the same person, signed in on another browser, its requests watched.
    const b = await e2e.device();
    const liveShapeRequests: string[] = [];
    const wakeRequests: string[] = [];
    b.page.on("request", (r) => {
      if (r.url().includes("/api/v1/sync/live")) wakeRequests.push(r.url());
      else if (r.url().includes("/api/v1/sync/shape/") && /[?&]live=true/.test(r.url())) liveShapeRequests.push(r.url());
    });
    await signIn(b.page, a.email);
    await b.page.getByRole("navigation", { name: "Main" }).waitFor();
    await b.page.goto(`/l/${a.locationId}/meters/${meterId}`);
    await b.page.getByRole("heading", { name: "Main meter" }).waitFor();
    await synced(b.page);

    // A reading on the first device, through its meter screen.
    await a.page.goto(`/l/${a.locationId}/meters/${meterId}`);
    await a.page.getByRole("heading", { name: "Main meter" }).waitFor();
    await a.page.getByLabel("Reading (kWh)").fill("1234.5");
    await a.page.getByRole("button", { name: "Save reading" }).click();
    await a.page.getByRole("status").filter({ hasText: "Saved reading 1,234.5 kWh." }).waitFor();
    await synced(a.page);
    let from = Date.now();
    await b.page.getByRole("list", { name: "Readings" }).getByText("1,234.5 kWh").waitFor({ timeout: ARRIVES_MS });
    console.log(`live-screens: the reading showed on the second device ${Date.now() - from} ms after the first had pushed it`);

    // A loan on the first device, from the ladder's page, while the second has that page open.
    await b.page.goto(`/l/${a.locationId}/things/${ladder.body.id}`);
    await b.page.getByRole("heading", { name: "Ladder" }).waitFor();
    await synced(b.page);
    await a.page.goto(`/l/${a.locationId}/things/${ladder.body.id}`);
    await a.page.getByRole("heading", { name: "Ladder" }).waitFor();
    await a.page.getByRole("button", { name: "Lend", exact: true }).click();
    const form = a.page.getByRole("form", { name: "Lend this thing" });
    await form.getByLabel("Or a new person's name").fill("Sam");
    await form.getByRole("button", { name: "Save loan" }).click();
    await a.page.getByRole("region", { name: "Loans" }).getByText("Lent to Sam").waitFor();
    await synced(a.page);
    from = Date.now();
    await b.page.getByRole("region", { name: "Loans" }).getByText("Lent to Sam").waitFor({ timeout: ARRIVES_MS });
    console.log(`live-screens: the loan showed on the second device ${Date.now() - from} ms after the first had pushed it`);

    // One wake stream, no live shape stream: one long connection per device.
    expect(wakeRequests.length).toBeGreaterThan(0);
    expect(liveShapeRequests).toEqual([]);
  });
});
