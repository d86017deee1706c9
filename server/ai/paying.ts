/**
 * Who pays for a call and how much of their month is left: the types the extraction pipeline
 * (server/modules/extractions/) and the paying side (payer.ts, budget.ts) agree on.
 */
import type { PaidBy } from "../../shared/ai.js";
import type { AiBudget } from "../../shared/ai-settings.js";
import type { ProviderSettings } from "./providers.js";

export interface Payer {
  /** With the key unsealed: it goes into the provider's header and nowhere else (never logged). */
  provider: ProviderSettings;
  /** `mine` is the reader's business (read.ts fills it per reader); here it is always false. */
  paidBy: PaidBy;
  /** `instance`, `account:<id>` or `user:<id>`: the row of ai_budget_months it spends from. */
  payerKey: string;
  userId: string | null;
  accountId: string | null;
  budget: AiBudget | null;
  /** A base URL a person entered: calls go through guardedAiFetch (the instance's own is trusted). */
  guarded: boolean;
  /**
   * The settings row and the sealed key the call used (null for the instance): a refusal of the
   * key is recorded on that row, and only while it still holds that key (payer.ts markKey).
   */
  key: { settingsId: string; sealed: string | null } | null;
}

/** An estimate held against a payer's month while its call is in flight. */
export interface Reservation {
  payerKey: string;
  month: string;
  currency: string;
  amount: string;
}

export type Reserved = { ok: true; reservation: Reservation } | { ok: false; pausedUntil: Date };
