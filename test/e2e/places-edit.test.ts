/** Renaming, moving and deleting a place from the Places screen, each an op in the outbox. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { freshEmail, goTo, signUp, startE2e, synced, type E2e } from "./support/app.js";
import { screenshot } from "./support/browser.js";

/** The names of the places directly inside the tree item whose link starts with `name`. */
const childrenOf = (page: Page, name: string) =>
  page
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: new RegExp(`^${name}`) }) })
    .last()
    .getByRole("list")
    .first()
    .getByRole("link");

describe("editing places", () => {
  let e2e: E2e;
  beforeAll(async () => {
    e2e = await startE2e();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it("renames a place, moves it into another, refuses to offer deleting a place that holds one, and deletes an empty one", async () => {
    const { page } = await e2e.device();
    await signUp(page, "Pia Places", freshEmail("pia"));
    await goTo(page, "Places");
    for (const name of ["Garage", "Attic"]) {
      await page.getByLabel("Place name").fill(name);
      await page.getByRole("button", { name: "Add a place" }).click();
      await page.getByRole("link", { name: new RegExp(`^${name}`) }).waitFor();
    }
    await page.getByLabel("Place name").fill("Shelf 1");
    await page.getByLabel("Inside").selectOption({ label: "Garage" });
    await page.getByRole("button", { name: "Add a place" }).click();
    await page.getByRole("link", { name: /^Shelf 1/ }).waitFor();
    await synced(page);

    // The Unplaced area has no edit button; the others do.
    await page.getByRole("link", { name: /^Unplaced/ }).waitFor();
    expect(await page.getByRole("button", { name: /^Edit / }).count()).toBe(3);

    // Rename.
    await page.getByRole("button", { name: "Edit Shelf 1" }).click();
    await page.getByLabel("New name").fill("Top shelf");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByRole("link", { name: /^Top shelf/ }).waitFor();
    expect(await page.getByRole("link", { name: /^Shelf 1/ }).count()).toBe(0);
    await synced(page);

    // Move: the place itself is not offered as its own parent; the Unplaced area never is.
    const moveTo = page.getByLabel("Move inside");
    const options = await moveTo.locator("option").allTextContents();
    expect(options).toEqual(["(top level)", "Attic", "Garage"]);
    await moveTo.selectOption({ label: "Attic" });
    await page.getByRole("button", { name: "Move", exact: true }).click();
    await expect.poll(() => childrenOf(page, "Attic").allTextContents()).toEqual([expect.stringMatching(/^Top shelf/)]);
    await synced(page);
    await page.reload();
    await expect.poll(() => childrenOf(page, "Attic").allTextContents(), { timeout: 15_000 }).toEqual([expect.stringMatching(/^Top shelf/)]);
    expect(await childrenOf(page, "Garage").count()).toBe(0);

    // Attic holds Top shelf: Delete is there but disabled, and says why.
    await page.getByRole("button", { name: "Edit Attic" }).click();
    const deleteAttic = page.getByRole("button", { name: "Delete place" });
    await expect.poll(() => deleteAttic.isDisabled()).toBe(true);
    await page.getByText("It still holds other places: move or delete them first.").waitFor();
    // Top shelf is not offered as a new parent of Attic (it is inside Attic).
    expect(await page.getByLabel("Move inside").locator("option").allTextContents()).toEqual(["(top level)", "Garage"]);
    await screenshot(page, "places-edit");
    await page.getByRole("button", { name: "Close" }).click();

    // Delete the empty Top shelf, confirming first.
    await page.getByRole("button", { name: "Edit Top shelf" }).click();
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await page.getByRole("button", { name: "Delete place" }).click();
    await expect.poll(() => page.getByRole("link", { name: /^Top shelf/ }).count()).toBe(0);
    expect(asked).toBe("Delete the place “Top shelf”?");
    await synced(page);
    await page.reload();
    await page.getByRole("link", { name: /^Attic/ }).waitFor();
    // A refusal would bring it back as a sync_drop in the inbox; give the pull a moment.
    await page.waitForTimeout(2_000);
    expect(await page.getByRole("link", { name: /^Top shelf/ }).count()).toBe(0);
    expect(await childrenOf(page, "Attic").count()).toBe(0);
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Inbox", exact: true }).count()).toBe(1);
  });
});
