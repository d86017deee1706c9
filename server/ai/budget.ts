// TEMPORARY (replaced by the f-pay branch).
import type { AiCallRecord, AiCost } from "../../shared/ai.js";
import type { Db, Queryable } from "../db/client.js";
import type { Payer, Reservation, Reserved } from "./paying.js";
import type { ProviderSettings } from "./providers.js";

export function estimateCost(_p: ProviderSettings, _images: number, _max: number): AiCost | null {
  return null;
}
export async function reserveBudget(_db: Db, payer: Payer, _e: AiCost | null, now: Date): Promise<Reserved> {
  return { ok: true, reservation: { payerKey: payer.payerKey, month: now.toISOString().slice(0, 7), currency: "USD", amount: "0" } };
}
export async function settleBudget(_tx: Queryable, _r: Reservation, _a: AiCost | null): Promise<void> {}
export async function releaseBudget(_db: Db, _r: Reservation): Promise<void> {}
export function laterOrUnknown(r: AiCallRecord): AiCallRecord {
  return r;
}
