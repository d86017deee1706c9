/** The meter commands, for the registry (server/modules/registry.ts). */
export { meterCreate, meterDelete, meterUpdate } from "./commands.js";
export { readingCapture } from "./readings.js";
