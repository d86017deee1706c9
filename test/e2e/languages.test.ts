/**
 * Words in the reader's language (issue 19, point 9): the sign-in page switches language and
 * remembers it, counts take Arabic's plural forms (one, two, few, many, other) in the reader's
 * digits, and a thing's history reads in Arabic though the server stored it once.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { goTo } from "./support/app.js";
import { screenshot } from "./support/browser.js";

describe("languages", () => {
  it("the sign-in page has a language switch, and the choice stays across a reload and onto sign-up", async ({ e2e }) => {
    const { page } = await e2e.device();
    await page.goto("/sign-in");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByRole("navigation", { name: "Language" }).getByRole("button", { name: "العربية" }).click();
    await page.getByRole("heading", { name: "تسجيل الدخول" }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(["ar", "rtl"]);
    await screenshot(page, "sign-in-arabic");
    await page.reload();
    await page.getByRole("heading", { name: "تسجيل الدخول" }).waitFor();
    await page.getByRole("link", { name: "إنشاء حساب" }).click();
    await page.getByRole("heading", { name: "إنشاء حساب" }).waitFor();
    await page.getByRole("navigation", { name: "اللغة" }).getByRole("button", { name: "English" }).click();
    await page.getByRole("heading", { name: "Create an account" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("ltr");
  });

  it("counts things in Arabic's plural forms and a thing's history in Arabic", async ({ newPerson }) => {
    const { page, locationId: loc, client } = await newPerson("Noor", "noor");
    const api = await client();
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(`/l/${loc}/things`);
    const count = page
      .getByRole("main")
      .getByRole("status")
      .filter({ hasText: /غرض|أغراض/ });
    await count.filter({ hasText: "لا أغراض" }).waitFor();

    let made = 0;
    let first = "";
    for (const [n, words] of [
      [1, "غرض واحد"],
      [2, "غرضان"],
      [3, "٣ أغراض"],
      [11, "١١ غرضًا"],
      [100, "١٠٠ غرض"],
    ] as const) {
      for (; made < n; made++) {
        const res = await api.post<{ id: string }>(`/api/v1/locations/${loc}/things`, { name: `Box ${made + 1}` });
        expect(res.status).toBe(201);
        first ||= res.body.id;
      }
      await count.filter({ hasText: new RegExp(`^${words}$`) }).waitFor({ timeout: 30_000 });
    }
    await screenshot(page, "things-count-arabic");

    // The Sync screen names the tables it receives in words, and counts their rows in the same forms.
    await page.goto("/sync");
    await page.getByText(/^المواقع: صف واحد/).waitFor();
    await page.getByText(/^الأغراض: /).waitFor();
    expect(await page.getByText(/^(locations|things): /).count()).toBe(0);

    // Stored once, on the server, with a key and params: read here in Arabic.
    expect((await api.patch(`/api/v1/things/${first}`, { rowVersion: 1, name: "مثقاب" })).status).toBe(200);
    await page.goto(`/l/${loc}/things/${first}`);
    const history = page.getByRole("region", { name: "السجل" });
    await history.getByText("عُدِّل مثقاب").waitFor();
    await history.getByText("أُضيف Box 1").waitFor();
    expect(await history.getByText(/^(Changed|Added) /).count()).toBe(0);
    await screenshot(page, "history-arabic");
  });
});
