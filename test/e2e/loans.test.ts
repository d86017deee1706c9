/**
 * Loans in the app (issue "moves-loans"): 3 of 5 camping chairs lent from the thing's page to a
 * new contact with no signal; back online the server holds the split (2 + 3) and the loan; the
 * return joins them again (5, one thing). The Loans screen, linked from Things, shows the counts
 * and filters. The Arabic Loans screen and thing page fit a 360 px phone.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { goTo, serviceWorkerReady, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

describe("loans", () => {
  it("lends 3 of 5 offline to a new contact, syncs the split and the loan, returns it whole, and lists it", async ({ newPerson }) => {
    const { context, page, locationId, client } = await newPerson("Lena Lender", "lena");
    await page.getByRole("heading", { name: "Things" }).waitFor();
    await serviceWorkerReady(page);
    const owner = await client();
    const made = await owner.post(`/api/v1/locations/${locationId}/things`, { name: "Camping chair", quantity: "5" });
    expect(made.status).toBe(201);
    const thingId: string = made.body.id;

    await page.goto(`/l/${locationId}/things/${thingId}`);
    await page.getByRole("heading", { name: "Camping chair" }).waitFor();
    await synced(page);

    // No signal: lend 3 of the 5 to Sam, a person the app has never seen.
    await context.setOffline(true);
    await page.getByRole("button", { name: "Lend", exact: true }).click();
    const form = page.getByRole("form", { name: "Lend this thing" });
    await form.getByLabel("Or a new person's name").fill("Sam");
    await form.getByLabel("Quantity").fill("6");
    await form.getByRole("button", { name: "Save loan" }).click();
    await form.getByRole("alert").filter({ hasText: "at most 5" }).waitFor();
    await form.getByLabel("Quantity").fill("3");
    await form.getByRole("button", { name: "Save loan" }).click();
    const loans = page.getByRole("region", { name: "Loans" });
    await loans.getByText("Lent to Sam").waitFor();
    await loans.getByText("Not synced yet").waitFor();
    // The split shows at once: this thing keeps 2.
    await page.locator("dl.facts dd").nth(1).filter({ hasText: /^2$/ }).waitFor();
    await screenshot(page, "loan-lent-offline");

    await context.setOffline(false);
    await synced(page);
    const list = await owner.get(`/api/v1/loans?locationId=${locationId}`);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    const loan = list.body.items[0];
    expect(loan).toMatchObject({ direction: "out", quantity: "3", splitFromThingId: thingId, person: { name: "Sam", isMember: false }, returnedAt: null });
    expect(list.body.counts).toEqual({ out: 1, in: 0, overdue: 0 });
    expect((await owner.get(`/api/v1/things/${thingId}`)).body.quantity).toBe(2);
    const split = await owner.get(`/api/v1/things/${loan.thingId}`);
    expect(split.body).toMatchObject({ name: "Camping chair", quantity: 3, derivedState: ["lent"] });

    // The Loans screen, from the Things screen's header: counts and filters.
    await goTo(page, "Things");
    await page.getByRole("link", { name: "Loans" }).click();
    await page.getByRole("heading", { name: "Loans" }).waitFor();
    await page.getByText("Lent out: 1").waitFor();
    await page.getByText("Borrowed: 0").waitFor();
    const items = page.getByRole("list", { name: "Loans" });
    await items.getByText("Lent to Sam").waitFor();
    await page.getByLabel("State").selectOption("returned");
    await page.getByText("No loans match.").waitFor();
    await page.getByLabel("State").selectOption("open");
    await page.getByLabel("Search").fill("chair");
    await items.getByText("Lent to Sam").waitFor();
    await page.getByLabel("Search").fill("nobody");
    await page.getByText("No loans match.").waitFor();
    await page.getByLabel("Search").fill("");
    await page.getByLabel("Direction").selectOption("in");
    await page.getByText("No loans match.").waitFor();
    await page.getByLabel("Direction").selectOption("out");
    await page.getByLabel("Person").selectOption({ label: "Sam" });
    await items.getByText("Lent to Sam").waitFor();
    await screenshot(page, "loans-screen");

    // The return, from the original's page: the place it was taken from is offered.
    await page.goto(`/l/${locationId}/things/${thingId}`);
    await page.getByRole("heading", { name: "Camping chair" }).waitFor();
    await page.getByRole("form", { name: "Return: Lent to Sam" }).getByRole("button", { name: "Return" }).click();
    await page.getByText("Returned.").waitFor();
    await synced(page);
    await expect.poll(async () => (await owner.get(`/api/v1/things/${thingId}`)).body.quantity).toBe(5);
    expect((await owner.get(`/api/v1/things/${loan.thingId}`)).status).toBeGreaterThanOrEqual(400);
    const after = await owner.get(`/api/v1/loans?locationId=${locationId}&state=returned`);
    expect(after.body.items).toHaveLength(1);
    expect(after.body.counts).toEqual({ out: 0, in: 0, overdue: 0 });
    const things = await owner.get(`/api/v1/locations/${locationId}/things?q=Camping`);
    expect(things.body.items.map((t: { id: string }) => t.id)).toEqual([thingId]);
    await page.locator("dl.facts dd").nth(1).filter({ hasText: /^5$/ }).waitFor();

    // Arabic at 360 px: the Loans screen and the thing page render right to left, nothing spills sideways.
    await page.setViewportSize({ width: 360, height: 780 });
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(`/l/${locationId}/loans?state=returned`);
    await page.getByRole("heading", { name: "الإعارات" }).waitFor();
    await page.getByText("مُعار إلى Sam").waitFor();
    // The returned part joined its original: the list names it by the original.
    await page.getByRole("list", { name: "الإعارات" }).getByText("Camping chair").waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "loans-arabic-phone");
    await page.goto(`/l/${locationId}/things/${thingId}`);
    await page.getByRole("button", { name: "إعارة", exact: true }).click();
    await page.getByRole("form", { name: "إعارة هذا الغرض" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });
});
