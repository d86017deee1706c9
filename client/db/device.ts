/**
 * What the device remembers across users and reloads: who signed in last (so the app opens on
 * that user's data with no network), a stable client id for pushes, and display settings. Kept in
 * IndexedDB rather than localStorage because the service worker reads it too (background sync).
 */
import { Dexie, type EntityTable } from "dexie";
import { v7 as uuidv7 } from "uuid";

export interface DeviceUser {
  id: string;
  name: string;
}

interface Kv {
  key: string;
  value: unknown;
}

class DeviceDb extends Dexie {
  kv!: EntityTable<Kv, "key">;
  constructor() {
    super("inventory-device");
    this.version(1).stores({ kv: "key" });
  }
}

let db: DeviceDb | undefined;
const device = () => (db ??= new DeviceDb());

export async function currentUser(): Promise<DeviceUser | undefined> {
  return (await device().kv.get("user"))?.value as DeviceUser | undefined;
}

export async function setCurrentUser(user: DeviceUser | undefined): Promise<void> {
  if (user) await device().kv.put({ key: "user", value: user });
  else await device().kv.delete("user");
}

/** One id per device, sent as `clientId` with every push (sync/SPEC.md PU1). */
export async function clientId(): Promise<string> {
  const found = (await device().kv.get("clientId"))?.value;
  if (typeof found === "string") return found;
  const id = `web-${uuidv7()}`;
  await device().kv.put({ key: "clientId", value: id });
  return id;
}
