/**
 * The inbox of a location: captured drafts to accept, dismiss or merge into an existing thing,
 * possible duplicates to keep or merge, readings and label claims to decide, and changes that did
 * not apply (sync_drop: what, why, by whom, and re-apply). Review actions are ops
 * like any other, so a reviewer can clear the inbox with no signal.
 */
import { useEffect } from "react";
import { AcceptAll } from "./AcceptAll.js";
import { StraightInSetting } from "../capture/StraightInSetting.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { ClaimItem } from "./ClaimItem.js";
import { DuplicateItem } from "./DuplicateItem.js";
import { ReadingItem } from "../meters/ReadingItem.js";
import { CurrencyItem } from "./CurrencyItem.js";
import { ReceiptItem } from "./ReceiptItem.js";
import { Hint } from "../../ui/Hint.js";
import { Shell } from "../../ui/Shell.js";
import { useRegistries } from "../../ui/registries.js";
import { useLocation } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { DropItem } from "./DropItem.js";
import { DraftItem } from "./DraftItem.js";

export function InboxScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const data = useLocationScreen(locationId);
  const { db } = useReady();
  const reg = useRegistries(db, locationId);
  const { hash } = useLocation();
  const loaded = !!data;
  // A notification opens one item: bring its card into view once the list is there.
  useEffect(() => {
    if (loaded && /^#item-[0-9a-f-]{36}$/.test(hash)) document.getElementById(hash.slice(1))?.firstElementChild?.scrollIntoView({ block: "center" });
  }, [loaded, hash]);
  if (!data) return <Shell locationId={locationId}>{t("common.loading")}</Shell>;
  const things = new Map(data.things.map((th) => [th.id, th]));
  const items = [...data.inbox].sort((a, b) => b.capturedAt.localeCompare(a.capturedAt));
  return (
    <Shell locationId={locationId} locationName={data.location?.name ?? ""} inboxCount={items.length}>
      <h1>{t("inbox.title")}</h1>
      <Hint id="inbox" />
      {data.canEdit ? <AcceptAll locationId={locationId} drafts={items.filter((i) => i.kind === "draft")} /> : null}
      {data.canEdit ? <StraightInSetting locationId={locationId} /> : null}
      {items.length ? (
        <div className="cards">
          {items.map((item) => (
            // The anchor a notification opens (/l/{loc}/inbox#item-{id}); display: contents keeps the card layout.
            <div key={item.id} id={`item-${item.id}`} className="anchor">
              {item.kind === "sync_drop" ? (
                <DropItem key={item.id} item={item} things={things} canEdit={data.canEdit} />
              ) : item.kind === "draft" ? (
                <DraftItem key={item.id} item={item} things={things} canEdit={data.canEdit} reg={reg} />
              ) : item.kind === "label_claim" ? (
                <ClaimItem key={item.id} item={item} canEdit={data.canEdit} />
              ) : item.kind === "duplicate" ? (
                <DuplicateItem key={item.id} item={item} things={things} canEdit={data.canEdit} />
              ) : item.kind === "reading" ? (
                <ReadingItem key={item.id} item={item} canEdit={data.canEdit} />
              ) : item.kind === "receipt" ? (
                <ReceiptItem key={item.id} item={item} things={things} canEdit={data.canEdit} />
              ) : item.kind === "currency" ? (
                <CurrencyItem key={item.id} item={item} canEdit={data.canEdit} />
              ) : (
                <article key={item.id} className="card">
                  <h2>{t("inbox.kind.other")}</h2>
                </article>
              )}
            </div>
          ))}
        </div>
      ) : (
        <p>{t("inbox.none")}</p>
      )}
    </Shell>
  );
}
