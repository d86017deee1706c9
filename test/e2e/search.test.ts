/**
 * Finding things on the device, in English and Arabic, online and offline: by a place's name, a
 * type, a container; a place filter that keeps what is in the places and containers inside it;
 * and a container's page listing what it holds.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import type { Page } from "playwright-core";
import { goTo, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

/** The names of the things the Things screen lists (list `listName`), once they settle on `expected`. */
async function listed(page: Page, listName: string, expected: string[]): Promise<void> {
  const names = () =>
    page
      .getByRole("list", { name: listName, exact: true })
      .getByRole("link")
      .locator("strong")
      .allTextContents()
      .then((n) => n.sort());
  await expect.poll(names, { timeout: 10_000 }).toEqual([...expected].sort());
}

async function addPlace(page: Page, name: string, fields: { name: string; inside: string; add: string }, parent?: string) {
  await page.getByLabel(fields.name, { exact: true }).fill(name);
  if (parent) await page.getByLabel(fields.inside, { exact: true }).selectOption({ label: parent });
  await page.getByRole("button", { name: fields.add }).click();
  await page.getByRole("link", { name: new RegExp(`^${name}`) }).waitFor();
}

async function capture(page: Page, name: string, type: string, place: string, labels = { name: "Name", type: "Type", place: "Place", save: "Save thing" }) {
  await page.getByLabel(labels.name, { exact: true }).fill(name);
  await page.getByLabel(labels.type, { exact: true }).selectOption({ label: type });
  await page.getByLabel(labels.place, { exact: true }).selectOption({ label: place });
  await page.getByRole("button", { name: labels.save }).click();
  await page.getByText(new RegExp(name)).first().waitFor();
}

describe("search and place filters", () => {
  it("finds things by place, type and container, filters a place with what is inside it, lists a box's contents, offline too, in English and Arabic", async ({
    newPerson,
  }) => {
    const { context, page, locationId } = await newPerson("Sam Search", "sam");
    const en = { name: "Place name", inside: "Inside", add: "Add a place" };
    await goTo(page, "Places");
    await addPlace(page, "Garage", en);
    await addPlace(page, "Shelf 2", en, "Garage");
    await addPlace(page, "Attic", en);

    await goTo(page, "Capture");
    await capture(page, "Red crate", "Box", "Shelf 2");
    await capture(page, "Cordless drill", "Tool", "Attic");
    await capture(page, "Ladder", "Thing", "Attic");
    await synced(page);

    // The drill goes into the crate: it then has no place of its own, only the crate's.
    await goTo(page, "Things");
    await page.getByRole("link", { name: /^Cordless drill/ }).click();
    await page.getByRole("link", { name: "Move" }).click();
    await page.getByRole("radio", { name: "A container" }).check();
    await page.getByLabel("Container", { exact: true }).selectOption({ label: "Red crate" });
    await page.getByRole("button", { name: "Move" }).click();
    await page.getByText("Garage › Shelf 2 › Red crate").waitFor();
    await synced(page);

    // The crate's page lists what is in it; the drill's page has no contents list.
    await goTo(page, "Things");
    await page.getByRole("link", { name: /^Red crate/ }).click();
    await page.getByRole("heading", { name: "In this container" }).waitFor();
    await listed(page, "In this container", ["Cordless drill"]);
    await screenshot(page, "container-contents");
    await page
      .getByRole("list", { name: "In this container" })
      .getByRole("link", { name: /Cordless drill/ })
      .click();
    await page.getByRole("heading", { name: "Cordless drill" }).waitFor();
    expect(await page.getByRole("heading", { name: "In this container" }).count()).toBe(0);

    // Search: a place's name finds what is in it and in its containers; a type; several words at once.
    await page.goto(`/l/${locationId}/things`);
    const search = page.getByLabel("Search things");
    await search.fill("garage");
    await listed(page, "Things", ["Red crate", "Cordless drill"]);
    await search.fill("tool");
    await listed(page, "Things", ["Cordless drill"]);
    await search.fill("SHELF crate");
    await listed(page, "Things", ["Red crate", "Cordless drill"]);
    await search.fill("attic");
    await listed(page, "Things", ["Ladder"]);
    await search.fill("");

    // The Garage filter keeps the crate on Shelf 2 (inside Garage) and the drill in the crate.
    const place = page.getByLabel("Place", { exact: true });
    expect(await place.locator("option").allTextContents()).toEqual(["All places", "Attic", "Garage", "Garage › Shelf 2", "Unplaced"]);
    await place.selectOption({ label: "Garage" });
    await listed(page, "Things", ["Red crate", "Cordless drill"]);
    await place.selectOption({ label: "Attic" });
    await listed(page, "Things", ["Ladder"]);
    await place.selectOption({ label: "All places" });
    await screenshot(page, "search-en");

    // Offline: the search runs on the device.
    await context.setOffline(true);
    await search.fill("shelf 2");
    await listed(page, "Things", ["Red crate", "Cordless drill"]);
    await search.fill("");
    await context.setOffline(false);

    // Arabic: places and things with Arabic names, found as people type them.
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(`/l/${locationId}/places`);
    const ar = { name: "اسم المكان", inside: "داخل", add: "أضف مكانًا" };
    await page.getByRole("heading", { name: "الأماكن" }).waitFor();
    await addPlace(page, "المرآب الخلفي", ar);
    await addPlace(page, "رفّ ٣", ar, "المرآب الخلفي");
    await page.goto(`/l/${locationId}/capture`);
    const arCapture = { name: "الاسم", type: "النوع", place: "المكان", save: "حفظ الغرض" };
    await capture(page, "مِثْقَب صغير", "أداة", "رفّ ٣", arCapture);
    await capture(page, "صندوق الأسلاك", "صندوق", "المرآب الخلفي", arCapture);
    await page.goto(`/l/${locationId}/things`);
    const arSearch = page.getByLabel("ابحث في الأغراض");
    // No madda on the alef, no shadda, Western digits, the type without its hamza: all found.
    await arSearch.fill("المراب");
    await listed(page, "الأغراض", ["مِثْقَب صغير", "صندوق الأسلاك"]);
    await arSearch.fill("رف 3");
    await listed(page, "الأغراض", ["مِثْقَب صغير"]);
    await arSearch.fill("اداة");
    await listed(page, "الأغراض", ["Cordless drill", "مِثْقَب صغير"]);
    await arSearch.fill("مثقب");
    await listed(page, "الأغراض", ["مِثْقَب صغير"]);
    // Arabic-Indic digits find "Shelf 2".
    await arSearch.fill("shelf ٢");
    await listed(page, "الأغراض", ["Red crate", "Cordless drill"]);
    await arSearch.fill("");
    await page.getByLabel("المكان", { exact: true }).selectOption({ label: "المرآب الخلفي" });
    await listed(page, "الأغراض", ["مِثْقَب صغير", "صندوق الأسلاك"]);
    await screenshot(page, "search-ar");

    // A container's page in Arabic.
    await page.getByLabel("المكان", { exact: true }).selectOption({ label: "كل الأماكن" });
    await page.getByRole("link", { name: /^Red crate/ }).click();
    await page.getByRole("heading", { name: "في هذه الحاوية" }).waitFor();
    await listed(page, "في هذه الحاوية", ["Cordless drill"]);
  });
});
