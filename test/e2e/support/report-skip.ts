/**
 * vitest globalSetup of the e2e project when Chromium is missing: repeats, after every other
 * project has reported, that the e2e tests did not run and why, so a long run cannot hide it.
 */
import { CHROMIUM_PATH } from "./browser.js";

export default function setup(): () => void {
  return () => {
    console.warn(`\n*** e2e project SKIPPED: no Chromium at ${CHROMIUM_PATH}; install it with: apt-get install -y chromium ***\n`);
  };
}
