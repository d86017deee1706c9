/**
 * A first sync of a location larger than one snapshot page (sync/SPEC.md SH9): every page lands
 * in the app's database, and the Things list reads its first rows by name from the index, whatever
 * page they came in.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { sql } from "../../server/db/client.js";
import { FIRST_PAGE_ROWS } from "../../server/sync/shapes/query.js";
import { THINGS_LIST_LIMIT } from "../../client/ui/things-list.js";
import { signIn } from "./support/app.js";

describe("first sync of a large location", () => {
  it("SH9 stores every page, lists the first things by name from the index and finds one from the last page", async ({ e2e }) => {
    const owner = await e2e.svc.signedIn("Paula Pages");
    const locationId = (await owner.get("/api/v1/me")).body.locations[0].id as string;
    const seeded = FIRST_PAGE_ROWS + 700;
    await e2e.svc.database.db.execute(sql`
      INSERT INTO things (id, location_id, place_id, type_id, name)
      SELECT CASE WHEN g = 0 THEN 'ffffffff-ffff-4fff-bfff-ffffffffffff'::uuid ELSE gen_random_uuid() END, ${locationId},
             (SELECT id FROM places WHERE location_id = ${locationId} AND is_unplaced),
             (SELECT id FROM types WHERE account_id = (SELECT account_id FROM locations WHERE id = ${locationId}) AND builtin_key = 'thing'),
             CASE WHEN g = 0 THEN 'Aardvark' ELSE 'Item ' || lpad(g::text, 4, '0') END
      FROM generate_series(0, ${seeded - 1}) g`);

    const { page } = await e2e.device();
    await signIn(page, owner.email);
    await page.waitForURL((url) => url.pathname === `/l/${locationId}/things`, { timeout: 15_000 });
    const stored = () =>
      page.evaluate(
        (name) =>
          new Promise<number>((resolve, reject) => {
            const req = indexedDB.open(name);
            req.onerror = () => reject(new Error(String(req.error)));
            req.onsuccess = () => {
              const c = req.result.transaction("things").objectStore("things").count();
              c.onsuccess = () => resolve(c.result);
            };
          }),
        `inventory-${owner.userId}`,
      );
    await expect.poll(stored, { timeout: 30_000 }).toBe(seeded);

    const list = page.getByRole("list", { name: "Things" });
    // The greatest id there is: it came in the last page, and still sorts first by name.
    await expect.poll(() => list.getByRole("link").first().innerText(), { timeout: 15_000 }).toMatch(/^Aardvark/);
    expect(await list.getByRole("link").count()).toBe(THINGS_LIST_LIMIT);
    expect(await list.getByRole("link").nth(1).innerText()).toMatch(/^Item 0001/);
    // "Show more" continues by name, a page at a time, until everything is listed.
    await page.getByRole("button", { name: "Show more" }).click();
    await expect.poll(() => list.getByRole("link").count()).toBe(2 * THINGS_LIST_LIMIT);
    expect(await list.getByRole("link").nth(THINGS_LIST_LIMIT).innerText()).toMatch(new RegExp(`^Item ${String(THINGS_LIST_LIMIT).padStart(4, "0")}`));
    for (let shown = 2 * THINGS_LIST_LIMIT; shown < seeded; shown += THINGS_LIST_LIMIT) await page.getByRole("button", { name: "Show more" }).click();
    await expect.poll(() => list.getByRole("link").count()).toBe(seeded);
    expect(await page.getByRole("button", { name: "Show more" }).count()).toBe(0);
    await page.getByLabel("Search things").fill("item 1650");
    await expect.poll(() => list.getByRole("link").count()).toBe(1);
    expect(await list.getByRole("link").first().innerText()).toMatch(/^Item 1650/);
  });
});
