/** Helpers for pushing ops like a device's outbox does. */
import { v7 as uuidv7 } from "uuid";
import { PROTOCOL } from "../../sync/protocol.js";
import type { HttpClient } from "./app.js";

export interface OpIn {
  name: string;
  locationId: string;
  args: Record<string, unknown>;
  baseVersion?: number;
  id?: string;
}

export const op = (o: OpIn) => ({ id: o.id ?? uuidv7(), at: new Date().toISOString(), ...o });

export function push(c: HttpClient, ops: ReturnType<typeof op>[], clientId = "device-1") {
  return c.post("/api/v1/sync/push", { clientId, protocol: PROTOCOL, ops });
}
