/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser), with the flags this
 * machine needs: no sandbox as root, and no background networking (the network is closed, and
 * Chromium's own lookups would only add noise and time).
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const chromiumAvailable = () => existsSync(CHROMIUM_PATH);

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

/** Screenshots of the main screens land in test-results/e2e (git-ignored); the best go in docs/. */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../../../test-results/e2e");

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
