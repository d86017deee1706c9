/**
 * The thing's tags: remove one, or add one by name (a tag the account does not have yet is created
 * first, as a registry op, so this works offline too).
 */
import { useState } from "react";
import { v7 as uuidv7 } from "uuid";
import type { TagRow, ThingRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic-registries.js";
import { enqueueRegistry } from "../../sync/registry-enqueue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { queueThingUpdate } from "../../ops/things/queue.js";

export function ThingTags({ locationId, thing, tags, canEdit }: { locationId: string; thing: View<ThingRow>; tags: View<TagRow>[]; canEdit: boolean }) {
  const { t } = useI18n();
  const { db } = useReady();
  const [name, setName] = useState("");
  const byId = new Map(tags.map((tg) => [tg.id, tg]));
  const mine = thing.tagIds ?? [];
  const set = (tagIds: string[]) => queueThingUpdate(db, locationId, thing, { tagIds });
  const add = async () => {
    const n = name.trim();
    if (!n) return;
    let tag = tags.find((tg) => tg.name.toLocaleLowerCase() === n.toLocaleLowerCase());
    if (!tag) {
      const id = uuidv7();
      await enqueueRegistry(db, { name: "tag.create", locationId, args: { id, name: n.slice(0, 80) } });
      tag = { id, accountId: "", name: n, colour: null, rowVersion: 0, createdAt: "", updatedAt: "", deletedAt: null };
    }
    setName("");
    if (!mine.includes(tag.id)) await set([...mine, tag.id]);
  };
  return (
    <section aria-labelledby="tags-h">
      <h2 id="tags-h">{t("tags.title")}</h2>
      {mine.length ? (
        <ul className="tags" aria-label={t("tags.title")}>
          {mine.map((id) => {
            const label = byId.get(id)?.name ?? "…";
            return (
              <li key={id} className="tag">
                {label}
                {canEdit ? (
                  <button
                    type="button"
                    className="tag-remove icon-close"
                    aria-label={t("tags.remove", { name: label })}
                    onClick={() => void set(mine.filter((x) => x !== id))}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="hint">{t("tags.none")}</p>
      )}
      {canEdit ? (
        <form
          className="row-form"
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <label>
            {t("tags.add")}
            <input list="tag-names" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} autoComplete="off" />
          </label>
          <datalist id="tag-names">
            {tags
              .filter((tg) => !mine.includes(tg.id))
              .map((tg) => (
                <option key={tg.id} value={tg.name} />
              ))}
          </datalist>
          <button type="submit">{t("tags.addButton")}</button>
        </form>
      ) : null}
    </section>
  );
}
