/**
 * A captured draft in the inbox: its photo, what extraction suggests, and accept, dismiss or merge
 * into an existing thing.
 */
import { useState } from "react";
import type { InboxRow, ThingRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import type { SuggestedFieldDef } from "../../ui/ai-format.js";
import { ExtractionStatus } from "../extraction/ExtractionStatus.js";
import { PhotoImage } from "../photos/PhotoImage.js";
import { SuggestionList } from "../extraction/SuggestionList.js";
import { effectiveFields, type Registries } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { thingName } from "../../ui/names.js";

/** The custom fields of a thing's type (archived ones too): how suggestions for them are labelled and read. */
function fieldDefs(typeId: string | null | undefined, reg: Registries | undefined): SuggestedFieldDef[] {
  return reg ? effectiveFields(typeId, reg.typesById, reg.fields, true).map((e) => e.field) : [];
}

export function DraftItem({ item, things, canEdit, reg }: { item: InboxRow; things: Map<string, ThingRow>; canEdit: boolean; reg: Registries | undefined }) {
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
