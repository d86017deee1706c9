/**
 * An inbox `label_claim` item: a label claimed for one thing (often offline) that another already
 * held. Accept gives the label to the claim; dismiss leaves it where it is (server/modules/codes/review.ts).
 */
import { formatCode } from "../../../shared/codes.js";
import type { InboxRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { targetPath } from "../scan/ScanOutcome.js";

export function ClaimItem({ item, canEdit }: { item: InboxRow; canEdit: boolean }) {
  const { t, dateTime } = useI18n();
  const { db } = useReady();
  const claim = item.payload.claim;
  if (!claim) return null;
  const code = formatCode(claim.code);
  const act = (name: "inbox.accept" | "inbox.dismiss") => void enqueue(db, { name, locationId: item.locationId, args: { id: item.id } });
  const unnamed = t("common.unnamed");
  return (
    <article className="card" aria-label={`${t("claim.item")}: ${code}`}>
      <h2>{t("claim.item")}</h2>
      <p className="meta">{dateTime(item.capturedAt)}</p>
      <p>
        {t("claim.wanted", { code })}{" "}
        <Link to={targetPath(claim.claimedFor.kind, claim.claimedFor.id, item.locationId)}>{claim.claimedFor.name || unnamed}</Link>
      </p>
      {claim.heldBy ? (
        <p>
          {t("claim.heldBy")} <Link to={targetPath(claim.heldBy.kind, claim.heldBy.id, item.locationId)}>{claim.heldBy.name || unnamed}</Link>
        </p>
      ) : null}
      {canEdit ? (
        <div className="actions">
          <button type="button" className="primary" onClick={() => act("inbox.accept")}>
            {t("claim.give", { name: claim.claimedFor.name || unnamed })}
          </button>
          <button type="button" onClick={() => act("inbox.dismiss")}>
            {t("claim.keep")}
          </button>
        </div>
      ) : null}
    </article>
  );
}
