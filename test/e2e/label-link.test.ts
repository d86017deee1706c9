/**
 * A label's QR code opened by a phone's camera app in a browser that is not signed in: sign-in
 * comes first, then the app lands on the thing the label names, not on the home screen. (A file of
 * its own: sign-in attempts are limited per address and minute, and the scan tests use them up.)
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { freshEmail, PASSWORD, signIn } from "./support/app.js";

describe("a label link while signed out", () => {
  it("a label opened while signed out lands on its thing once the person has signed in", async ({ e2e }) => {
    const email = freshEmail("lou");
    const c = e2e.svc.client();
    expect((await c.post("/api/v1/auth/sign-up", { email, password: PASSWORD, name: "Lou Label" })).status).toBe(200);
    expect((await c.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const locationId = ((await c.get("/api/v1/locations")).body as { items: { id: string }[] }).items[0]!.id;
    const made = await c.post(`/api/v1/locations/${locationId}/things`, { name: "Blue crate" });
    const { id, shortCode } = made.body as { id: string; shortCode: string };

    // A phone's camera app opens the label's link in a browser that has never signed in.
    const { page } = await e2e.device();
    await page.goto(`/c/${shortCode}`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await signIn(page, email);
    await page.waitForURL((url) => url.pathname === `/l/${locationId}/things/${id}`, { timeout: 20_000 });
    await page.getByRole("heading", { name: "Blue crate" }).waitFor();
  });
});
