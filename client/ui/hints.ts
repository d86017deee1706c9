/**
 * First-use hints remembered per person across devices (PUT/GET /api/v1/me/hints). A dismissal
 * counts at once on this device (localStorage) and is queued until the server has it: sent now,
 * and again whenever the device comes back online or the app starts, until it is taken. The
 * server's list is read once per app start, so a hint dismissed on another device stays hidden.
 */
import { api, ApiError } from "../sync/api.js";

type Pending = Record<string, { seen: true; dismissed: true }>;

const dismissedKey = (userId: string) => `hints.dismissed:${userId}`;
const pendingKey = (userId: string) => `hints.pending:${userId}`;

function read<T>(key: string, fallback: T): T {
  try {
    return (JSON.parse(localStorage.getItem(key) ?? "null") as T | null) ?? fallback;
  } catch {
    return fallback;
  }
}

export function locallyDismissed(userId: string): Set<string> {
  return new Set(read<string[]>(dismissedKey(userId), []));
}

function remember(userId: string, keys: Iterable<string>): void {
  const all = locallyDismissed(userId);
  for (const k of keys) all.add(k);
  localStorage.setItem(dismissedKey(userId), JSON.stringify([...all]));
}

let fetched: Promise<void> | null = null;

/** The server's dismissals, merged into this device's (once per app start). */
export function syncDismissed(userId: string): Promise<void> {
  fetched ??= api<{ items: { key: string; dismissed: boolean }[] }>("GET", "/api/v1/me/hints").then(
    (list) =>
      remember(
        userId,
        list.items.filter((h) => h.dismissed).map((h) => h.key),
      ),
    () => {
      // Offline: try again next time a hint asks.
      fetched = null;
    },
  );
  return fetched;
}

let flushing = false;
/** A dismissal queued while a flush was under way: that flush goes round once more. */
let again = false;

/** Sends every queued dismissal; a network failure keeps it queued, a refusal (a bad key) drops it. */
export async function flushHints(userId: string): Promise<void> {
  if (flushing) {
    again = true;
    return;
  }
  flushing = true;
  try {
    do {
      again = false;
      for (const [key, body] of Object.entries(read<Pending>(pendingKey(userId), {}))) {
        try {
          await api("PUT", `/api/v1/me/hints/${encodeURIComponent(key)}`, body);
        } catch (err) {
          if (err instanceof ApiError && (err.offline || err.status >= 500 || err.status === 429 || err.status === 401)) return;
        }
        const left = read<Pending>(pendingKey(userId), {});
        delete left[key];
        localStorage.setItem(pendingKey(userId), JSON.stringify(left));
      }
    } while (again);
  } finally {
    flushing = false;
  }
}

export function dismissHint(userId: string, key: string): void {
  remember(userId, [key]);
  const pending = read<Pending>(pendingKey(userId), {});
  pending[key] = { seen: true, dismissed: true };
  localStorage.setItem(pendingKey(userId), JSON.stringify(pending));
  void flushHints(userId);
}

let listening = false;

/** Flushes the queue when the device comes back online (installed once). */
export function flushWhenOnline(userId: string): void {
  if (listening) return;
  listening = true;
  window.addEventListener("online", () => void flushHints(userId));
  void flushHints(userId);
}
