/**
 * Box checks (issue 14): two members check the same box with the network off and find different
 * things. Back online, both checks are on the server, nothing is lost, and each thing ends as the
 * server's rules say whatever order the phones push in: the latest sighting wins, a "not here"
 * after the last sighting makes a thing uncertain, a thing found in the box moves into it.
 */
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { freshEmail, goTo, locationIdOf, PASSWORD, serviceWorkerReady, signUp, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

type Mark = "Seen" | "Not here" | "Part here";

async function check(page: Page, marks: Record<string, Mark>, found: string[] = []) {
  for (const [name, mark] of Object.entries(marks)) await page.getByRole("group", { name }).getByLabel(mark, { exact: true }).check();
  for (const name of found) {
    await page.getByLabel("Add found thing").fill(name.slice(0, 3));
    await page.getByRole("button", { name: `Add ${name}` }).click();
  }
}

describe("box checks", () => {
  it("two phones check one box offline with different findings: both kept, the things end as the rules say", async ({ e2e }) => {
    const a = await e2e.device({ viewport: { width: 360, height: 740 } });
    const ownerEmail = freshEmail("otto");
    await signUp(a.page, "Otto Owner", ownerEmail);
    const locationId = await locationIdOf(a.page);

    const owner = e2e.svc.client();
    expect((await owner.post("/api/v1/auth/sign-in/email", { email: ownerEmail, password: PASSWORD })).status).toBe(200);
    const make = async (body: Record<string, unknown>): Promise<string> => {
      const res = await owner.post(`/api/v1/locations/${locationId}/things`, body);
      expect(res.status).toBe(201);
      return (res.body as { id: string }).id;
    };
    const box = await make({ name: "Red box", isContainer: true });
    const ids = {
      Hammer: await make({ name: "Hammer", containerId: box }),
      Tape: await make({ name: "Tape", containerId: box }),
      Saw: await make({ name: "Saw", containerId: box }),
      Drill: await make({ name: "Drill" }),
    };

    await goTo(a.page, "Members");
    await a.page.getByLabel("Role", { exact: true }).selectOption({ label: "Member" });
    await a.page.getByRole("button", { name: "Create invitation" }).click();
    const inviteLink = await a.page.getByLabel("Invitation link (shown once)").inputValue();
    const b = await e2e.device();
    await signUp(b.page, "Mona Member", freshEmail("mona"), inviteLink);

    for (const d of [a, b]) {
      await d.page.goto(`/l/${locationId}/things/${box}`);
      await d.page.getByRole("link", { name: "Check this box" }).click();
      await d.page.getByRole("heading", { name: "Check Red box" }).waitFor();
      await d.page.getByRole("group", { name: "Saw" }).waitFor();
      await serviceWorkerReady(d.page);
      await d.context.setOffline(true);
    }

    // The owner: hammer and saw seen, tape gone, the drill found in the box.
    await check(a.page, { Hammer: "Seen", Tape: "Not here", Saw: "Seen" }, ["Drill"]);
    await screenshot(a.page, "box-check");
    await a.page.getByRole("button", { name: "Save check" }).click();
    await a.page.getByText("Check saved. It goes to the server when there is signal.").waitFor();
    // The device shows the finding at once: the drill is in the box now, the tape uncertain.
    await a.page.getByRole("heading", { name: "Should be in it (4)" }).waitFor();
    await a.page
      .getByRole("group", { name: "Tape" })
      .getByText(/^Uncertain/)
      .waitFor();

    // The member, a moment later: the hammer is gone, the tape is there, one of the saws.
    await check(b.page, { Hammer: "Not here", Tape: "Seen", Saw: "Part here" });
    await b.page.getByLabel("How many here").fill("0");
    await b.page.getByRole("button", { name: "Save check" }).click();
    await b.page.getByText("How many of Saw are here: a number above 0.").waitFor();
    await b.page.getByLabel("How many here").fill("1");
    await b.page.getByRole("button", { name: "Save check" }).click();
    await b.page.getByText("Check saved. It goes to the server when there is signal.").waitFor();
    // Kept on the device across a reload with no network.
    await b.page.reload();
    const past = b.page.getByRole("region", { name: "Past checks" });
    await past.getByText("1 seen, 1 not here, 1 part here, 0 found").waitFor();
    await past.getByText("Not synced yet").waitFor();

    // The later check reaches the server first: the order must not matter.
    await b.context.setOffline(false);
    await synced(b.page);
    await a.context.setOffline(false);
    await synced(a.page);

    const checks = await owner.get(`/api/v1/things/${box}/box-checks`);
    expect(checks.status).toBe(200);
    const items = (checks.body as { items: { seen: number; notHere: number; split: number; movedIn: number; by: { displayName: string } }[] }).items;
    expect(items.map((c) => ({ by: c.by.displayName, seen: c.seen, notHere: c.notHere, split: c.split, movedIn: c.movedIn }))).toEqual([
      { by: "Mona Member", seen: 1, notHere: 1, split: 1, movedIn: 0 },
      { by: "Otto Owner", seen: 2, notHere: 1, split: 0, movedIn: 1 },
    ]);
    const thing = async (id: string) =>
      (await owner.get(`/api/v1/things/${id}`)).body as { derivedState: string[]; lastSeenAt: string | null; containerId: string | null };
    const [hammer, tape, saw, drill] = await Promise.all([ids.Hammer, ids.Tape, ids.Saw, ids.Drill].map(thing));
    // Hammer: seen by the owner, then not here for the member: uncertain.
    expect(hammer!.derivedState).toContain("uncertain");
    // Tape: not here for the owner, then seen by the member: not uncertain, seen.
    expect(tape!.derivedState).not.toContain("uncertain");
    expect(tape!.lastSeenAt).not.toBeNull();
    expect(saw!.derivedState).not.toContain("uncertain");
    expect(drill!.containerId).toBe(box);

    // Both phones show the server's answer. Box checks are not a live shape: the member's phone
    // synced before the owner's check was on the server, and opening the box's check brings it in.
    await b.page.getByRole("link", { name: "Back to Red box" }).click();
    await b.page.getByRole("link", { name: "Check this box" }).click();
    for (const d of [a, b]) {
      await d.page
        .getByRole("group", { name: "Hammer" })
        .getByText(/^Uncertain/)
        .waitFor({ timeout: 15_000 });
      await d.page
        .getByRole("group", { name: "Tape" })
        .getByText(/^Last seen/)
        .waitFor({ timeout: 15_000 });
      await d.page.getByRole("region", { name: "Past checks" }).getByText("2 seen, 1 not here, 0 part here, 1 found").waitFor();
      await d.page.getByRole("region", { name: "Past checks" }).getByText("1 seen, 1 not here, 1 part here, 0 found").waitFor();
    }
    // Online, the list names who made each check.
    await a.page
      .getByRole("region", { name: "Past checks" })
      .getByText(/by Mona Member/)
      .waitFor({ timeout: 15_000 });
    await screenshot(b.page, "box-check-after-sync");
  });
});
