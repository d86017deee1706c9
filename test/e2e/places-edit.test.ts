/** Renaming, moving and deleting a place from the Places screen, each an op in the outbox. */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import type { Page } from "playwright-core";
import { freshEmail, goTo, locationIdOf, signUp, synced } from "./support/app.js";
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
  it("renames a place, moves it into another, refuses to offer deleting a place that holds one, and deletes an empty one", async ({ e2e }) => {
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

  it("in Arabic: a second place starts at the top level again, renames, and says why a place that holds something cannot be deleted", async ({ e2e }) => {
    const { page } = await e2e.device({ viewport: { width: 360, height: 740 } });
    await signUp(page, "Rana", freshEmail("rana"));
    // Settings keeps the location's tabs once the app has gone into the location.
    await locationIdOf(page);
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    const nav = page.getByRole("navigation", { name: "القائمة الرئيسية" });
    await nav.getByRole("link", { name: "الأماكن" }).click();
    await page.getByRole("heading", { name: "الأماكن" }).waitFor();
    await page.getByLabel("اسم المكان").fill("المطبخ");
    await page.getByRole("button", { name: "أضف مكانًا" }).click();
    await page.getByRole("link", { name: /^المطبخ/ }).waitFor();
    await page.getByLabel("اسم المكان").fill("خزانة");
    await page.getByLabel("داخل").selectOption({ label: "المطبخ" });
    await page.getByRole("button", { name: "أضف مكانًا" }).click();
    await page.getByRole("link", { name: /^خزانة/ }).waitFor();
    // The form forgets the parent: the next place would go to the top level unless asked.
    expect(await page.getByLabel("داخل").locator("option:checked").textContent()).toBe("(المستوى الأعلى)");

    await nav.getByRole("link", { name: "التقاط" }).click();
    await page.getByLabel("الاسم", { exact: true }).fill("قدر");
    await page.getByLabel("المكان", { exact: true }).selectOption({ label: "خزانة" });
    await page.getByRole("button", { name: "حفظ الغرض" }).click();
    await page.getByText(/قدر/).first().waitFor();
    await synced(page);

    await nav.getByRole("link", { name: "الأماكن" }).click();
    await page.getByRole("button", { name: "تعديل خزانة" }).click();
    await page.getByLabel("الاسم الجديد").fill("خزانة علوية");
    await page.getByRole("button", { name: "إعادة التسمية" }).click();
    await page.getByRole("link", { name: /^خزانة علوية/ }).waitFor();
    await expect.poll(() => page.getByRole("button", { name: "حذف المكان" }).isDisabled()).toBe(true);
    await page.getByText("ما زال يحوي أغراضًا: انقلها إلى مكان آخر أولًا.").waitFor();
    await page.getByRole("button", { name: "إغلاق" }).click();
    await page.getByRole("button", { name: "تعديل المطبخ" }).click();
    await page.getByText("ما زال يحوي أماكن أخرى: انقلها أو احذفها أولًا.").waitFor();
    await screenshot(page, "places-edit-ar-360");
  });
});
