/**
 * What accepting or dismissing an item does beyond resolving it, for the kinds that own rows of
 * another module: a `reading` item decides its reading (server/modules/meters/review.ts), a
 * `label_claim` item decides who holds the code (server/modules/codes/review.ts), a `receipt` item
 * makes or links its lines' things and a `currency` item sets its purchase's currency
 * (server/modules/receipts/review.ts). A draft's
 * effects stay in commands.ts. Each module answers for its own rows; the inbox only calls it.
 */
import { labelClaimReview } from "../codes/review.js";
import { readingReview } from "../meters/review.js";
import { currencyReview, receiptReview } from "../receipts/review.js";
import type { InboxKind } from "../../../shared/inbox.js";
import type { KindReview } from "../../commands/inbox-review.js";

/** Filled by the modules (one line each); a kind with no entry is only resolved. */
export const KIND_REVIEWS: Partial<Record<InboxKind, KindReview<never>>> = {
  reading: readingReview,
  label_claim: labelClaimReview as KindReview<never>,
  receipt: receiptReview,
  currency: currencyReview,
};
