/**
 * What the device remembers across users and reloads: who signed in last (so the app opens on
 * that user's data with no network), a stable client id for pushes, and display settings. Kept in
 * IndexedDB rather than localStorage because the service worker reads it too (background sync).
 *
 * Plain IndexedDB, not Dexie: the sign-in page asks it who signed in last, and a phone should not
 * download Dexie (and the sync engine) to draw a sign-in form. The database is the one Dexie made
 * before (`inventory-device`, Dexie's version 1 is IndexedDB's 10, one store `kv` keyed by `key`),
 * so a device that signed in before keeps its user and client id.
 */
import { v7 as uuidv7 } from "uuid";

export interface DeviceUser {
  id: string;
  name: string;
}

const NAME = "inventory-device";
const VERSION = 10;
const STORE = "kv";

let opened: Promise<IDBDatabase> | undefined;

function device(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(NAME, VERSION);
    req.onupgradeneeded = () => {
      if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE, { keyPath: "key" });
    };
    req.onsuccess = () => {
      const db = req.result;
      // Another tab deleting or upgrading the database: let it, and open afresh next time.
      db.onversionchange = () => {
        db.close();
        opened = undefined;
      };
      resolve(db);
    };
    req.onerror = () => {
      opened = undefined;
      reject(req.error ?? new Error(`${NAME}: open failed`));
    };
  });
  return opened;
}

async function request<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await device();
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = run(tx.objectStore(STORE));
    // Resolved on commit, so a write is durable before the caller goes on (as Dexie did).
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error ?? new Error(`${NAME}: transaction failed`));
    tx.onabort = () => reject(tx.error ?? new Error(`${NAME}: transaction aborted`));
  });
}

async function get(key: string): Promise<unknown> {
  const row = (await request("readonly", (s) => s.get(key))) as { value?: unknown } | undefined;
  return row?.value;
}

export async function currentUser(): Promise<DeviceUser | undefined> {
  return (await get("user")) as DeviceUser | undefined;
}

export async function setCurrentUser(user: DeviceUser | undefined): Promise<void> {
  if (user) await request("readwrite", (s) => s.put({ key: "user", value: user }));
  else await request("readwrite", (s) => s.delete("user"));
}

/** One id per device, sent as `clientId` with every push (sync/SPEC.md PU1). */
export async function clientId(): Promise<string> {
  const found = await get("clientId");
  if (typeof found === "string") return found;
  const id = `web-${uuidv7()}`;
  await request("readwrite", (s) => s.put({ key: "clientId", value: id }));
  return id;
}
