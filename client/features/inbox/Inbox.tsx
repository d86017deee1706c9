/**
 * The inbox of a location: captured drafts to accept, dismiss or merge into an existing thing,
 * possible duplicates to keep or merge, readings and label claims to decide, and changes that did
 * not apply (sync_drop: what, why, by whom, and re-apply). Review actions are ops
 * like any other, so a reviewer can clear the inbox with no signal.
 */
import { useEffect, useState } from "react";
import type { InboxRow, ThingRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { opLabel as labelOf } from "../../ops/index.js";
import { reapply } from "../../sync/reapply.js";
import { reapplyCanSucceed } from "../../sync/checks.js";
import { useLive } from "../../ui/data.js";
import { AcceptAll } from "./AcceptAll.js";
import { StraightInSetting } from "../capture/StraightInSetting.js";
import type { MessageKey } from "../../ui/i18n/i18n.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import type { SuggestedFieldDef } from "../../ui/ai-format.js";
import { ExtractionStatus } from "../extraction/ExtractionStatus.js";
import { Notice } from "../../ui/Notice.js";
import { ClaimItem } from "./ClaimItem.js";
import { DuplicateItem } from "./DuplicateItem.js";
import { ReadingItem } from "../meters/ReadingItem.js";
import { CurrencyItem } from "./CurrencyItem.js";
import { ReceiptItem } from "./ReceiptItem.js";
import { Hint } from "../../ui/Hint.js";
import { PhotoImage } from "../photos/PhotoImage.js";
import { Shell } from "../../ui/Shell.js";
import { SuggestionList } from "../extraction/SuggestionList.js";
import { effectiveFields, useRegistries, type Registries } from "../../ui/registries.js";
import { useLocation } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { thingName } from "../../ui/names.js";
import { useLocationScreen } from "../../ui/use-location.js";

/** "name: “Shelf”, quantity: 2": what a dropped op would have changed. */
function describeChange(args: unknown): string {
  if (!args || typeof args !== "object") return "";
  const a = args as Record<string, unknown>;
  const shown = (a.patch && typeof a.patch === "object" ? a.patch : a) as Record<string, unknown>;
  return Object.entries(shown)
    .filter(([k]) => k !== "id" && k !== "batchId")
    .map(([k, v]) => `${k}: ${typeof v === "string" ? `“${v}”` : JSON.stringify(v)}`)
    .join(", ");
}

function DropItem({ item, things, canEdit }: { item: InboxRow; things: Map<string, ThingRow>; canEdit: boolean }) {
  const { t } = useI18n();
  const { db } = useReady();
  const [note, setNote] = useState<string | null>(null);
  const canReapply = useLive(() => reapplyCanSucceed(db, item), [db, item]);
  const drop = item.payload.syncDrop;
  if (!drop) return null;
  const target = drop.entity ? things.get(drop.entity.id) : undefined;
  const opLabel = labelOf(drop.op, t);
  const name = drop.entity?.name || thingName(target, t);
  const reason = t(`drop.${drop.reason}` as MessageKey);
  return (
    <article className="card drop" aria-label={`${t("inbox.kind.sync_drop")}: ${name}`}>
      <h2>{t("inbox.kind.sync_drop")}</h2>
      <p>{t("inbox.dropWhat", { op: opLabel, name })}</p>
      <p>{t("inbox.dropWhy", { reason: reason.startsWith("drop.") ? drop.reason : reason })}</p>
      {drop.message ? <p className="meta">{drop.message}</p> : null}
      {describeChange(drop.op.args) ? <p>{t("inbox.dropChange", { change: describeChange(drop.op.args) })}</p> : null}
      {drop.by ? <p className="meta">{t("inbox.dropBy", { name: drop.by.displayName })}</p> : null}
      {canEdit ? (
        <div className="actions">
          {/* Only where pushing it again can succeed (DR6); else only Dismiss. */}
          {canReapply ? (
            <button
              type="button"
              className="primary"
              aria-label={`${t("inbox.reapply")}: ${name}`}
              onClick={() => void reapply(db, item, target?.rowVersion).then((ok) => setNote(ok ? t("inbox.reapplied") : null))}
            >
              {t("inbox.reapply")}
            </button>
          ) : null}
          <button
            type="button"
            aria-label={`${t("inbox.dismiss")}: ${name}`}
            onClick={() => void enqueue(db, { name: "inbox.dismiss", locationId: item.locationId, args: { id: item.id } })}
          >
            {t("inbox.dismiss")}
          </button>
        </div>
      ) : null}
      {canEdit && canReapply === false ? <p className="hint">{t("inbox.noReapply")}</p> : null}
      <Notice>{note}</Notice>
    </article>
  );
}

/** The custom fields of a thing's type (archived ones too): how suggestions for them are labelled and read. */
function fieldDefs(typeId: string | null | undefined, reg: Registries | undefined): SuggestedFieldDef[] {
  return reg ? effectiveFields(typeId, reg.typesById, reg.fields, true).map((e) => e.field) : [];
}

function DraftItem({ item, things, canEdit, reg }: { item: InboxRow; things: Map<string, ThingRow>; canEdit: boolean; reg: Registries | undefined }) {
  const { t, dateTime, num } = useI18n();
  const { db } = useReady();
  const [merging, setMerging] = useState(false);
  const [into, setInto] = useState("");
  const thing = item.thingId ? things.get(item.thingId) : undefined;
  const name = thingName(thing, t);
  const candidates = [...things.values()].filter((th) => th.id !== item.thingId && th.lifecycle !== "draft");
  const act = (name2: "inbox.accept" | "inbox.dismiss") => void enqueue(db, { name: name2, locationId: item.locationId, args: { id: item.id } });
  return (
    <article className="card" aria-label={`${t("inbox.kind.draft")}: ${name}`}>
      <PhotoImage fileId={thing?.coverFileId ?? item.payload.photos?.[0]?.fileId} size="thumb" alt="" />
      <h2>{name}</h2>
      <p className="meta">
        {t("inbox.kind.draft")} · {dateTime(item.capturedAt)}
        {item.payload.photos?.length ? ` · ${num(item.payload.photos.length)} 📷` : ""}
      </p>
      {item.payload.extraction ? <ExtractionStatus extraction={item.payload.extraction} /> : null}
      {thing ? <SuggestionList thing={thing} defs={fieldDefs(thing.typeId, reg)} canEdit={canEdit} /> : null}
      {canEdit ? (
        <div className="actions">
          <button type="button" className="primary" aria-label={`${t("inbox.accept")}: ${name}`} onClick={() => act("inbox.accept")}>
            {t("inbox.accept")}
          </button>
          <button type="button" aria-label={`${t("inbox.dismiss")}: ${name}`} onClick={() => act("inbox.dismiss")}>
            {t("inbox.dismiss")}
          </button>
          <button type="button" aria-expanded={merging} aria-label={`${t("inbox.merge")} ${name}`} onClick={() => setMerging(!merging)}>
            {t("inbox.merge")}
          </button>
        </div>
      ) : null}
      {merging ? (
        <form
          className="stack inline"
          onSubmit={(e) => {
            e.preventDefault();
            const target = into || candidates[0]?.id;
            if (target) void enqueue(db, { name: "inbox.merge", locationId: item.locationId, args: { id: item.id, into: target } });
          }}
        >
          <label>
            {t("inbox.mergeInto")}
            <select aria-label={t("inbox.mergeInto")} value={into || candidates[0]?.id || ""} onChange={(e) => setInto(e.target.value)}>
              {candidates.map((c) => (
                <option key={c.id} value={c.id}>
                  {thingName(c, t)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">{t("inbox.mergeConfirm")}</button>
        </form>
      ) : null}
    </article>
  );
}

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
