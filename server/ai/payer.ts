// TEMPORARY (replaced by the f-pay branch): the instance pays, or nobody.
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { instanceProvider } from "./instance.js";
import type { Payer } from "./paying.js";

export async function resolvePayer(_db: Db, config: Pick<Config, "ai">, _who: { locationId: string; requestedBy: string | null }): Promise<Payer | null> {
  const provider = instanceProvider(config);
  if (!provider) return null;
  return {
    provider,
    paidBy: { scope: "instance", label: "Instance", mine: false },
    payerKey: "instance",
    userId: null,
    accountId: null,
    budget: null,
    guarded: false,
  };
}
