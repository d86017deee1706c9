/** The place tree, search, moving a thing, and undoing the move from its history. */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { freshEmail, goTo, signUp, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

describe("places, search, move and undo", () => {
  it("builds a place tree, finds a thing by search, moves it and undoes the move", async ({ e2e }) => {
    const { page } = await e2e.device();
    await signUp(page, "Pat Places", freshEmail("pat"));
    await goTo(page, "Places");
    await page.getByLabel("Place name").fill("Garage");
    await page.getByRole("button", { name: "Add a place" }).click();
    await page.getByRole("link", { name: /^Garage/ }).waitFor();
    await page.getByLabel("Place name").fill("Shelf 1");
    await page.getByLabel("Inside").selectOption({ label: "Garage" });
    await page.getByRole("button", { name: "Add a place" }).click();
    await page.getByRole("link", { name: /^Shelf 1/ }).waitFor();
    // The form forgets the parent it was given: the next place is not put inside Garage unasked.
    expect(await page.getByLabel("Inside").inputValue()).toBe("");

    await goTo(page, "Capture");
    await page.getByLabel("Place", { exact: true }).selectOption({ label: "Garage" });
    for (const name of ["Hammer", "Saw"]) {
      await page.getByLabel("Name", { exact: true }).fill(name);
      await page.getByRole("button", { name: "Save thing" }).click();
      await page.getByText(`Saved “${name}”`).waitFor();
    }
    await synced(page);
    await goTo(page, "Places");
    await page.getByRole("link", { name: "Garage 2 things" }).waitFor();
    await screenshot(page, "places");

    await goTo(page, "Things");
    await page.getByLabel("Search things").fill("ham");
    await expect.poll(() => page.getByRole("list", { name: "Things" }).getByRole("link").count()).toBe(1);
    await page.getByRole("link", { name: /Hammer/ }).click();
    await page.getByRole("link", { name: "Move" }).click();
    await page.getByLabel("Place", { exact: true }).selectOption({ label: "Shelf 1" });
    await page.getByRole("button", { name: "Move" }).click();
    await page.getByRole("heading", { name: "Hammer" }).waitFor();
    await page.getByText("Garage › Shelf 1").waitFor();
    await synced(page);

    const undo = page.getByRole("button", { name: /^Undo: Moved Hammer/ });
    await undo.waitFor();
    await undo.click();
    await page.getByText("Undone.").waitFor();
    await expect.poll(() => page.getByText("Garage › Shelf 1").count(), { timeout: 15_000 }).toBe(0);
    await page
      .getByRole("definition")
      .filter({ hasText: /^Garage$/ })
      .waitFor();
  });
});
