/**
 * One syncing tab per user (and the service worker's background sync, which takes the same lock):
 * navigator.locks grants the named lock to one holder at a time across tabs and workers, and hands
 * it to the next waiting tab when the holder closes. Without Web Locks (old browsers) every tab
 * syncs; pushes stay correct because op ids make replays harmless (sync/SPEC.md PU6).
 */
export const syncLockName = (userId: string) => `inventory-sync-${userId}`;

/**
 * Waits to become the syncing tab, then runs `work` until `signal` aborts. Resolves when the lock
 * is released.
 */
export async function whileLeader(userId: string, signal: AbortSignal, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  if (!locks) return work(signal);
  try {
    await locks.request(syncLockName(userId), { signal }, async () => {
      if (!signal.aborted) await work(signal);
    });
  } catch (err) {
    // Aborted while waiting for the lock: another tab kept syncing; nothing to do.
    if (!(err instanceof DOMException && err.name === "AbortError")) throw err;
  }
}

/** Runs `work` only if no other tab is syncing right now (the service worker's background sync). */
export async function ifNoLeader(userId: string, work: () => Promise<void>): Promise<boolean> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  if (!locks) {
    await work();
    return true;
  }
  let ran = false;
  await locks.request(syncLockName(userId), { ifAvailable: true }, async (lock) => {
    if (!lock) return;
    ran = true;
    await work();
  });
  return ran;
}
