/**
 * What deciding a `label_claim` inbox item does (inbox/kinds.ts): accept gives the code to the
 * thing or place it was claimed for (holders.ts `give`: the previous holder keeps its other codes);
 * dismiss leaves the code where it is.
 */
import { inboxClaimSchema, type InboxClaim } from "../../../shared/codes.js";
import { NotFoundError } from "../../errors/classes.js";
import type { KindReview } from "../../commands/inbox-review.js";
import { give, holderOf, loadHolders, type Holders } from "./holders.js";

const claimOf = (payload: unknown): InboxClaim | null => {
  const parsed = inboxClaimSchema.safeParse((payload as { claim?: unknown } | null)?.claim);
  return parsed.success ? parsed.data : null;
};

export const labelClaimReview: KindReview<Holders> = {
  load(ctx, items) {
    const claims = items.map((i) => claimOf(i.payload)).filter((c): c is InboxClaim => !!c);
    return loadHolders(
      ctx,
      claims.map((c) => c.code),
      claims.map((c) => ({ kind: c.claimedFor.kind, id: c.claimedFor.id })),
    );
  },
  accept(ctx, changes, item, st) {
    const claim = claimOf(item.payload);
    const row = claim ? st.codes.get(claim.code) : undefined;
    if (!claim || !row || row.locationId !== item.locationId) return new NotFoundError("code");
    const to = st.holders.get(claim.claimedFor.id);
    if (!to || to.kind !== claim.claimedFor.kind || to.locationId !== item.locationId || to.deletedAt) return new NotFoundError(claim.claimedFor.kind);
    if (holderOf(row)?.id === to.id) return { eventId: null };
    return { eventId: give(ctx, changes, st, row, to) };
  },
  dismiss() {
    return { eventId: null };
  },
};
