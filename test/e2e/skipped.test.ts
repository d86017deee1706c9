/**
 * Stands in for the e2e project on a machine without Chromium (vitest.config.ts includes it only
 * then), so the run says plainly what was not tested and why. CI installs Chromium and sets
 * E2E_REQUIRED=1, which turns a missing browser into a failure instead.
 */
import { it } from "vitest";
import { CHROMIUM_PATH } from "./support/browser.js";

it.skip(`e2e skipped: no Chromium at ${CHROMIUM_PATH} (install it with: apt-get install -y chromium)`, () => undefined);
