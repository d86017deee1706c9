/**
 * An inbox `duplicate` item: a thing made or accepted that looks like another (same serial, or the
 * same brand and model in one place; server/modules/duplicates/raise.ts). Keep both accepts it;
 * merge folds this thing into the other (its fields fill what the other lacks, history says so).
 * Both are ops, so the decision works offline.
 */
import type { InboxRow, ThingRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { thingName } from "../../ui/names.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { paths } from "../../ui/routes.js";

export function DuplicateItem({ item, things, canEdit }: { item: InboxRow; things: Map<string, ThingRow>; canEdit: boolean }) {
  const { t, dateTime } = useI18n();
  const { db } = useReady();
  const dup = item.payload.duplicate;
  if (!dup) return null;
  const thing = item.thingId ? things.get(item.thingId) : undefined;
  const other = things.get(dup.otherId);
  const name = thingName(thing, t);
  const otherName = thingName(other, t);
  const thingLink = (id: string, label: string) => <Link to={paths.thing({ locationId: item.locationId, thingId: id })}>{label}</Link>;
  const [before, after] = t("duplicate.looksLike", { name: "\u0000", other: "\u0001" }).split("\u0000");
  const [middle, end] = (after ?? "").split("\u0001");
  return (
    <article className="card" aria-label={`${t("duplicate.item")}: ${name}`}>
      <h2>{t("duplicate.item")}</h2>
      <p className="meta">
        {t(`duplicate.reason.${dup.reason}`)} · {dateTime(item.capturedAt)}
      </p>
      <p>
        {before}
        {item.thingId ? thingLink(item.thingId, name) : name}
        {middle}
        {other ? thingLink(other.id, otherName) : otherName}
        {end}
      </p>
      {!other ? <p className="meta">{t("duplicate.otherGone")}</p> : null}
      {canEdit ? (
        <div className="actions">
          <button
            type="button"
            aria-label={`${t("duplicate.keepBoth")}: ${name}`}
            onClick={() => void enqueue(db, { name: "inbox.accept", locationId: item.locationId, args: { id: item.id } })}
          >
            {t("duplicate.keepBoth")}
          </button>
          {other ? (
            <button
              type="button"
              className="primary"
              onClick={() => void enqueue(db, { name: "inbox.merge", locationId: item.locationId, args: { id: item.id, into: other.id } })}
            >
              {t("duplicate.merge", { other: otherName })}
            </button>
          ) : null}
        </div>
      ) : null}
    </article>
  );
}
