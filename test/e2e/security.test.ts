/**
 * The account screens reached from Settings, in Chromium: two-step verification turned on with the
 * code computed from the key the app shows (then signing out and back in through the second
 * step, and the recovery kit behind re-authentication); a passkey registered on Chromium's virtual
 * authenticator (over CDP) and used to sign in; a personal token made and revoked (checked over
 * HTTP) and an assistant disconnected; another device signed out from the Devices screen, and by a
 * password change. The Arabic screens fit 360 px.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { rows, sql } from "../../server/db/client.js";
import { grantAndCode } from "../../server/oauth/grants.js";
import { startSmtp, tokenFromLink, type TestSmtp } from "../support/smtp.js";
import { freshTotpCode } from "../support/totp.js";
import { freshEmail, goTo, PASSWORD, signIn, signUp, startE2e, type E2e } from "./support/app.js";
import { screenshot } from "./support/browser.js";

const openSecurity = async (page: Page, link = "Security") => {
  await goTo(page, "Settings");
  await page.getByRole("link", { name: link }).click();
};

/**
 * A service (and browser) of its own for each group: every browser context signs in from the same
 * address, and sign-in attempts are limited to 5 a minute per address.
 */
function withE2e(env: Record<string, string> = {}): () => E2e {
  let e2e: E2e | undefined;
  beforeAll(async () => {
    e2e = await startE2e(env);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  return () => e2e!;
}

describe("two-step verification and passkeys", () => {
  // Passkeys need a host name for the relying party: the app is served as localhost.
  const e2eOf = withE2e({ SVC_PUBLIC_URL: "http://localhost:{port}" });

  it("turns on two-step verification from the QR screen, then signs in again through the second step", async () => {
    const e2e = e2eOf();
    const { page } = await e2e.device();
    const email = freshEmail("tess");
    await signUp(page, "Tess Totp", email);
    await page.getByRole("heading", { name: "Things" }).waitFor();
    await openSecurity(page);
    const totp = page.getByRole("region", { name: "Two-step verification" });
    await totp.getByText("Off: signing in needs your password only.").waitFor();
    await totp.getByRole("button", { name: "Turn on two-step verification" }).click();
    await totp.getByLabel("Current password").fill(PASSWORD);
    await totp.getByRole("button", { name: "Continue" }).click();
    // The QR code is an image drawn on the device (a data: URL, never a request).
    const qr = totp.getByRole("img", { name: "QR code for your authenticator app" });
    await qr.waitFor();
    expect(await qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    const key = await totp.getByLabel("Setup key").inputValue();
    expect(key).toMatch(/^[A-Z2-7]+=*$/);
    const uri = `otpauth://totp/Inventory?secret=${key}`;
    await totp.getByLabel("Code from the app").fill(await freshTotpCode(uri));
    await totp.getByRole("button", { name: "Confirm and turn on" }).click();
    await totp.getByText("Two-step verification is on.").waitFor();
    const codes = (await totp.getByRole("textbox", { name: "Your backup codes" }).inputValue()).split("\n");
    expect(codes).toHaveLength(10);
    await totp.getByRole("button", { name: "Done" }).click();
    await expect(totp.getByRole("textbox", { name: "Your backup codes" }).count()).resolves.toBe(0);

    // The recovery kit needs the password again (this session never re-authenticated).
    await totp.getByRole("button", { name: "Download recovery kit" }).click();
    await totp.getByLabel("Current password").fill(PASSWORD);
    const [download] = await Promise.all([page.waitForEvent("download"), totp.getByRole("button", { name: "Download recovery kit" }).click()]);
    const kit = JSON.parse(readFileSync(await download.path(), "utf8")) as { account: string; twoFactorEnabled: boolean; backupCodes: string[] };
    expect(kit).toMatchObject({ account: email, twoFactorEnabled: true });
    expect(kit.backupCodes.sort()).toEqual([...codes].sort());

    // Signed out and back in: the password alone leads to the second step, the code finishes it.
    await goTo(page, "Settings");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/sign-in$/);
    await signIn(page, email);
    await page.getByRole("heading", { name: "Two-step verification" }).waitFor();
    await page.getByLabel("Authenticator code").fill(await freshTotpCode(uri));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    await openSecurity(page);
    const again = page.getByRole("region", { name: "Two-step verification" });
    await again.getByText("On: signing in asks for a code").waitFor();

    // New backup codes replace the old ones; then two-step verification is turned off.
    await again.getByRole("button", { name: "New backup codes" }).click();
    await again.getByLabel("Current password").fill(PASSWORD);
    await again.getByRole("button", { name: "New backup codes" }).click();
    await again.getByText("New backup codes made; the old ones no longer work.").waitFor();
    const fresh = (await again.getByRole("textbox", { name: "Your backup codes" }).inputValue()).split("\n");
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => codes.includes(c))).toEqual([]);
    await again.getByRole("button", { name: "Done" }).click();
    await again.getByRole("button", { name: "Turn off two-step verification" }).click();
    await again.getByLabel("Current password").fill(PASSWORD);
    await again.getByRole("button", { name: "Turn off two-step verification" }).click();
    await again.getByText("Off: signing in needs your password only.").waitFor();
    expect(await rows(e2e.svc.database.db, sql`SELECT two_factor_enabled FROM users WHERE email = ${email}`)).toEqual([{ two_factor_enabled: false }]);
  });

  it("registers a passkey on Chromium's virtual authenticator, renames it and signs in with it", async () => {
    const e2e = e2eOf();
    const { context, page } = await e2e.device();
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    const email = freshEmail("pat");
    await signUp(page, "Pat Passkey", email);
    await page.getByRole("heading", { name: "Things" }).waitFor();
    await openSecurity(page);
    const passkeys = page.getByRole("region", { name: "Passkeys" });
    await passkeys.getByText("No passkeys yet.").waitFor();
    await passkeys.getByLabel("Passkey name").fill("Test phone");
    await passkeys.getByRole("button", { name: "Add a passkey" }).click();
    await passkeys.getByText("Passkey added.").waitFor();
    await passkeys.getByRole("button", { name: "Rename Test phone" }).click();
    await passkeys.getByLabel("New name for Test phone").fill("Work phone");
    await passkeys.getByRole("button", { name: "Save name" }).click();
    await passkeys.getByRole("button", { name: "Remove Work phone" }).waitFor();

    await goTo(page, "Settings");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/sign-in$/);
    await page.getByRole("radio", { name: "With a passkey" }).check();
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    await openSecurity(page);
    // The passkey has been used now.
    await page
      .getByRole("region", { name: "Passkeys" })
      .getByText(/last used/)
      .waitFor();

    // It stands in for the password when the sign-in email changes (re-authentication).
    const mail = page.getByRole("region", { name: "Sign-in email" });
    const newEmail = freshEmail("pat-new");
    await mail.getByLabel("New email").fill(newEmail);
    await mail.getByRole("button", { name: "Confirm with a passkey instead" }).click();
    await mail.getByText(`A confirmation link went to ${newEmail}.`, { exact: false }).waitFor();
  });
});

describe("personal tokens", () => {
  const e2eOf = withE2e();

  it("makes a personal token whose secret is shown once and works, then revokes it", async () => {
    const e2e = e2eOf();
    const { page } = await e2e.device();
    const email = freshEmail("toby");
    await signUp(page, "Toby Token", email);
    await page.getByRole("heading", { name: "Things" }).waitFor();
    await openSecurity(page, "Personal tokens and assistants");
    await page.getByText("No tokens yet.").waitFor();
    // The way to the API's reference, served by the server itself.
    await expect(page.getByRole("link", { name: /^API reference/ }).getAttribute("href")).resolves.toBe("/api/v1/reference");
    await page.getByLabel("Token name").fill("Backup script");
    await page.getByRole("radio", { name: "Read only" }).check();
    // One location (the personal one) is picked already.
    await page.getByRole("button", { name: "Create token" }).click();
    const secretBox = page.getByRole("textbox", { name: "Token secret" });
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^svt_/);
    const script = e2e.svc.client();
    const asToken = () => script.request("GET", "/api/v1/locations", undefined, { authorization: `Bearer ${secret}` });
    expect((await asToken()).status).toBe(200);
    await page.getByRole("button", { name: "Done" }).click();
    await expect(secretBox.count()).resolves.toBe(0);
    await page.reload();
    await page.getByRole("button", { name: "Revoke Backup script" }).click();
    await page.getByText(/Revoked/).waitFor();
    expect((await asToken()).status).toBe(401);

    // A connected assistant (a grant as the consent page makes it) is listed with what it may do, and disconnected.
    const [me] = await rows<{ id: string; location: string }>(
      e2e.svc.database.db,
      sql`SELECT u.id, m.location_id AS location FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.email = ${email}`,
    );
    await grantAndCode(
      e2e.svc.database.db,
      { userId: me!.id, clientName: "Claude Desktop", scopes: ["svc:read", "svc:write"], locationIds: [me!.location], mfaProven: false },
      { clientId: "https://client.example/app.json", redirectUri: "https://client.example/cb", codeChallenge: "x".repeat(43), resource: `${e2e.svc.url}/mcp` },
    );
    await page.reload();
    const assistants = page.getByRole("region", { name: "Connected assistants" });
    await assistants.getByText("read, write").waitFor();
    await assistants.getByRole("button", { name: "Disconnect Claude Desktop" }).click();
    await assistants.getByText("No assistants connected.").waitFor();
    expect(await rows(e2e.svc.database.db, sql`SELECT 1 FROM oauth_grants WHERE user_id = ${me!.id} AND revoked_at IS NULL`)).toEqual([]);
  });
});

describe("signed-in devices", () => {
  const e2eOf = withE2e();

  it("signs another device out, which then finds itself signed out; the Arabic screen fits 360 px", async () => {
    const e2e = e2eOf();
    const laptop = await e2e.device({ viewport: { width: 1200, height: 800 } });
    const email = freshEmail("dev");
    await signUp(laptop.page, "Devi Devices", email);
    await laptop.page.getByRole("heading", { name: "Things" }).waitFor();
    const phone = await e2e.device();
    await signIn(phone.page, email);
    await phone.page.getByRole("navigation", { name: "Main" }).waitFor();

    await openSecurity(laptop.page, "Devices");
    await laptop.page.getByRole("heading", { name: "Signed-in devices" }).waitFor();
    await laptop.page.getByText("This device").waitFor();
    await laptop.page.getByRole("button", { name: /^Sign out .*\(1\)$/ }).click();
    await laptop.page.getByText("That device is signed out.").waitFor();
    await expect(laptop.page.getByRole("button", { name: /^Sign out .*\(1\)$/ }).count()).resolves.toBe(0);

    // The phone learns it on its next request to the server: its data stays, a banner asks to sign in.
    await phone.page.reload();
    await phone.page.getByRole("alert").getByText("You are signed out").waitFor();

    // Signed in again on the phone (from the banner): "everywhere else" from the laptop signs it out once more.
    const signInFromBanner = async () => {
      await phone.page.getByRole("alert").getByRole("link", { name: "Sign in" }).click();
      await phone.page.getByLabel("Email or username").fill(email);
      await phone.page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await phone.page.getByRole("button", { name: "Sign in" }).click();
      await phone.page.getByRole("alert").waitFor({ state: "detached" });
      await phone.page.getByRole("navigation", { name: "Main" }).waitFor();
    };
    await signInFromBanner();
    await laptop.page.reload();
    await laptop.page.getByRole("button", { name: "Sign out everywhere else" }).click();
    await laptop.page.getByText("Other devices signed out: 1.").waitFor();
    await phone.page.reload();
    await phone.page.getByRole("alert").getByText("You are signed out").waitFor();

    // A password change that signs out the other devices: the phone is out, the laptop stays in.
    await signInFromBanner();
    await goTo(laptop.page, "Settings");
    await laptop.page.getByRole("link", { name: "Security" }).click();
    const pw = laptop.page.getByRole("region", { name: "Password" });
    await pw.getByLabel("Current password").fill(PASSWORD);
    await pw.getByLabel("New password").fill("a brand new passphrase");
    await expect(pw.getByRole("checkbox", { name: "Sign out my other devices" }).isChecked()).resolves.toBe(true);
    await pw.getByRole("button", { name: "Change password" }).click();
    await pw.getByText("Your password is changed.").waitFor();
    await phone.page.reload();
    await phone.page.getByRole("alert").getByText("You are signed out").waitFor();
    await laptop.page.reload();
    await laptop.page.getByRole("heading", { name: "Security" }).waitFor();
    await expect(laptop.page.getByRole("alert").count()).resolves.toBe(0);

    // Arabic, phone-sized: right to left and nothing spills sideways, on each account screen.
    await laptop.page.setViewportSize({ width: 360, height: 780 });
    await goTo(laptop.page, "Settings");
    await laptop.page.getByRole("radio", { name: "العربية" }).check();
    const screens: [string, string][] = [
      ["/settings/devices", "الأجهزة المسجّل دخولها"],
      ["/settings/security", "الأمان"],
      ["/settings/tokens", "الرموز الشخصية"],
    ];
    for (const [path, heading] of screens) {
      await laptop.page.goto(path);
      await laptop.page.getByRole("heading", { name: heading, exact: true }).waitFor();
      expect(await laptop.page.evaluate(() => document.documentElement.dir)).toBe("rtl");
      expect(await laptop.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await screenshot(laptop.page, `account-${path.split("/").pop()}-arabic-phone`);
    }
  });
});

describe("sign-in email", () => {
  let smtp: TestSmtp;
  let e2e: E2e;
  beforeAll(async () => {
    smtp = await startSmtp();
    e2e = await startE2e({ SVC_SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await e2e?.close();
    await smtp?.close();
  });

  it("changes the sign-in email with the password; the link in the mail to the new address confirms it", async () => {
    const { page } = await e2e.device();
    const before = freshEmail("ezra");
    const after = freshEmail("ezra-new");
    await signUp(page, "Ezra Email", before);
    await page.getByRole("heading", { name: "Things" }).waitFor();
    await openSecurity(page);
    const mail = page.getByRole("region", { name: "Sign-in email" });
    await mail.getByText(before).waitFor();
    await mail.getByLabel("New email").fill(after);
    await mail.getByLabel("Current password").fill("not my password");
    await mail.getByRole("button", { name: "Change email" }).click();
    await mail.getByRole("alert").waitFor();
    await mail.getByLabel("Current password").fill(PASSWORD);
    await mail.getByRole("button", { name: "Change email" }).click();
    await mail.getByText(`A confirmation link went to ${after}.`).waitFor();
    const token = tokenFromLink(await smtp.waitFor(after), "confirm-email");
    await page.goto(`/confirm-email#token=${encodeURIComponent(token)}`);
    await page.getByText(`Done: you now sign in with ${after}.`).waitFor();
    expect(await rows(e2e.svc.database.db, sql`SELECT 1 FROM users WHERE email = ${after}`)).toHaveLength(1);
  });
});
