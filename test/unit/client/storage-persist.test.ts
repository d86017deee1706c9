/**
 * Persistent storage (client/db/persist.ts) against a fake navigator.storage: the app asks once per
 * device, never again after a refusal or an unanswered prompt, reports what the browser answered,
 * and says "unsupported" where the API is missing or throws.
 */
import { describe, expect, it } from "vitest";
import { ASKED_KEY, askPersist, askPersistOnce, bytesText, storageReport, type Memory, type StorageApi } from "../../../client/db/persist.js";

/** A browser's storage manager that grants or refuses, and counts the times it was asked. */
function fakeStorage(grants: boolean, estimate: { usage?: number; quota?: number } = { usage: 1_234_567, quota: 2_000_000_000 }) {
  const state = { persisted: false, asked: 0 };
  const storage: StorageApi = {
    persist: () => {
      state.asked++;
      if (grants) state.persisted = true;
      return Promise.resolve(state.persisted);
    },
    persisted: () => Promise.resolve(state.persisted),
    estimate: () => Promise.resolve(estimate),
  };
  return { storage, state };
}

function memory(): Memory & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

describe("asking for persistent storage", () => {
  it("asks once; a browser that grants keeps the answer, and later calls do not ask again", async () => {
    const { storage, state } = fakeStorage(true);
    const mem = memory();
    expect(await askPersistOnce(storage, mem)).toBe("granted");
    expect(await askPersistOnce(storage, mem)).toBe("granted");
    expect(state.asked).toBe(1);
    expect(mem.map.has(ASKED_KEY)).toBe(true);
  });

  it("a refusal is remembered: no prompt at every reload, and the state says denied", async () => {
    const { storage, state } = fakeStorage(false);
    const mem = memory();
    expect(await askPersistOnce(storage, mem)).toBe("denied");
    expect(await askPersistOnce(storage, mem)).toBe("denied");
    expect(state.asked).toBe(1);
    // The person may ask again from Settings.
    expect(await askPersist(storage)).toBe("denied");
    expect(state.asked).toBe(2);
  });

  it("already granted (another tab asked, or the browser decided): does not ask", async () => {
    const { storage, state } = fakeStorage(true);
    state.persisted = true;
    expect(await askPersistOnce(storage, memory())).toBe("granted");
    expect(state.asked).toBe(0);
  });

  it("no storage manager, no persist(), or one that throws: unsupported, never an error", async () => {
    expect(await askPersistOnce(undefined, memory())).toBe("unsupported");
    expect(await askPersistOnce({ estimate: () => Promise.resolve({}) }, memory())).toBe("unsupported");
    const throwing: StorageApi = { persist: () => Promise.reject(new TypeError("insecure")), persisted: () => Promise.resolve(false) };
    expect(await askPersistOnce(throwing, memory())).toBe("unsupported");
    expect(await askPersist({ persisted: () => Promise.resolve(false) })).toBe("unsupported");
  });
});

describe("the storage report Settings shows", () => {
  it("the browser's answer with its estimate", async () => {
    const { storage } = fakeStorage(true);
    expect(await storageReport(storage)).toEqual({ persist: "denied", usage: 1_234_567, quota: 2_000_000_000 });
    await askPersist(storage);
    expect((await storageReport(storage)).persist).toBe("granted");
  });

  it("leaves out what the browser cannot estimate", async () => {
    const { storage } = fakeStorage(false, { quota: 5_000_000 });
    expect(await storageReport(storage)).toEqual({ persist: "denied", quota: 5_000_000 });
    expect(await storageReport({ ...storage, estimate: () => Promise.reject(new Error("no")) })).toEqual({ persist: "denied" });
    expect(await storageReport(undefined)).toEqual({ persist: "unsupported" });
  });

  it("writes sizes in the reader's units and digits", () => {
    expect(bytesText(0, "en")).toBe("0 byte");
    expect(bytesText(1_234_567, "en")).toBe("1.2 MB");
    expect(bytesText(2_000_000_000, "en")).toBe("2 GB");
    expect(bytesText(345_000_000_000, "en")).toBe("345 GB");
    expect(bytesText(1_234_567, "ar-u-nu-arab")).toMatch(/١٫٢/);
    expect(bytesText(1_234_567, "ar-u-nu-latn")).toMatch(/1[.٫]2/);
  });
});
