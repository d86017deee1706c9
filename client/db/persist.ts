/**
 * Persistent storage: unless the browser grants it, it may clear this origin's IndexedDB when the
 * device runs short of space, and with it every change that has not reached the server yet. A
 * device that works offline for weeks holds exactly such changes, so the app asks once, when the
 * device first holds the person's data, and Settings says what the browser answered.
 *
 * Asking is never on the way of anything: the answer only decides what Settings says. Browsers
 * decide by their own rules (Chromium: an installed app, a bookmark, a site used often; Firefox:
 * a prompt), so a refusal now may become a grant later; the person can ask again from Settings.
 */

/** What of `navigator.storage` this reads; each part may be missing (old browsers, some webviews). */
export interface StorageApi {
  persist?: () => Promise<boolean>;
  persisted?: () => Promise<boolean>;
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
}

/** Where the app remembers that it asked (localStorage in the app). */
export interface Memory {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export type PersistState = "granted" | "denied" | "unsupported";

export interface StorageReport {
  persist: PersistState;
  /** Bytes this origin holds and may hold, as the browser estimates them; absent when it cannot say. */
  usage?: number;
  quota?: number;
}

export const ASKED_KEY = "storagePersistAsked";

const storageOf = (): StorageApi | undefined => (globalThis.navigator as { storage?: StorageApi } | undefined)?.storage;
const memoryOf = (): Memory | undefined => globalThis.localStorage;

/** Whether the browser keeps this origin's data (persisted()), without asking for it. */
async function current(storage: StorageApi | undefined): Promise<PersistState> {
  if (!storage?.persist || !storage.persisted) return "unsupported";
  try {
    return (await storage.persisted()) ? "granted" : "denied";
  } catch {
    return "unsupported";
  }
}

/** Asks the browser now; a browser that throws (an insecure context, a webview) counts as one that cannot. */
export async function askPersist(storage = storageOf()): Promise<PersistState> {
  if (!storage?.persist) return "unsupported";
  try {
    return (await storage.persist()) ? "granted" : "denied";
  } catch {
    return "unsupported";
  }
}

/**
 * Asks once per device: the first time the device holds data. Remembered before asking, so that a
 * prompt the person leaves unanswered (Firefox) does not come back at every reload.
 */
export async function askPersistOnce(storage = storageOf(), memory = memoryOf()): Promise<PersistState> {
  const now = await current(storage);
  if (now !== "denied" || memory?.getItem(ASKED_KEY)) return now;
  memory?.setItem(ASKED_KEY, new Date().toISOString());
  return askPersist(storage);
}

/** What Settings shows: the browser's answer and its estimate of what this origin holds and may hold. */
export async function storageReport(storage = storageOf()): Promise<StorageReport> {
  const persist = await current(storage);
  const estimate = await storage
    ?.estimate?.()
    .then((e) => e)
    .catch(() => undefined);
  return {
    persist,
    ...(typeof estimate?.usage === "number" ? { usage: estimate.usage } : {}),
    ...(typeof estimate?.quota === "number" ? { quota: estimate.quota } : {}),
  };
}

const UNITS = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte"] as const;

/** A byte count in the largest unit under which it is at least 1 (decimal units, as devices show storage). */
export function bytesText(bytes: number, locale: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit: UNITS[unit],
    unitDisplay: "short",
    maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0,
  }).format(value);
}
