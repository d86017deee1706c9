/**
 * A thing's history, newest first: what each entry changed (HistoryChanges), and Undo where the
 * reader may use it (shared/undo.ts, the rule the server applies) while its window is open. History
 * needs the network: offline it says so and loads again by itself when the connection is back.
 * An entry made by an AI call (a suggestion applied) says what the call cost and who paid.
 */
import { useState } from "react";
import type { HistoryEntry } from "../../../shared/history.js";
import { undoVerdict } from "../../../shared/undo.js";
import type { PlaceRow, ThingRow } from "../../db/rows.js";
import { aiCallParts } from "../../ui/ai-format.js";
import { useLive } from "../../ui/data.js";
import { historyActor, historySummary } from "../../ui/history-summary.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { effectiveFields, useRegistries } from "../../ui/registries.js";
import { useReady } from "../../ui/session.js";
import { HistoryChanges, namedIds, type FieldDefs, type HistoryNames } from "./HistoryChanges.js";
import { Notice } from "../../ui/Notice.js";
import { OnlineOnly } from "../../ui/OnlineOnly.js";
import { undoHistoryEntry, useThingHistory } from "./hooks.js";
import "../../ui/ai.css";

type Entry = HistoryEntry;

export function History({ thingId, version, canEdit }: { thingId: string; version: number; canEdit: boolean }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="history-h">
      <h2 id="history-h">{t("thing.history")}</h2>
      <OnlineOnly>
        <Entries thingId={thingId} version={version} canEdit={canEdit} />
      </OnlineOnly>
    </section>
  );
}

/** The thing's location and type, the reader's role there, and names for the ids the entries hold. */
function useHistoryContext(thingId: string, items: Entry[] | null) {
  const { db, user } = useReady();
  const thing = useLive(() => db.things.get(thingId), [db, thingId]);
  const locationId = thing?.locationId ?? "";
  const reg = useRegistries(db, locationId);
  const role = useLive(
    () => db.memberships.filter((m) => m.locationId === locationId && m.userId === user.id && !m.deletedAt).first(),
    [db, locationId, user.id],
  )?.role;
  const ids = items ? namedIds(items) : { places: [], things: [] };
  const key = `${ids.places.join()}|${ids.things.join()}`;
  const found = useLive(async () => {
    const [places, things] = await Promise.all([db.places.bulkGet(ids.places), db.things.bulkGet(ids.things)]);
    return {
      places: new Map(places.filter((p): p is PlaceRow => !!p).map((p) => [p.id, p])),
      things: new Map(things.filter((x): x is ThingRow => !!x).map((x) => [x.id, x])),
    };
  }, [db, key]);
  const names: HistoryNames = {
    places: found?.places ?? new Map<string, PlaceRow>(),
    things: found?.things ?? new Map<string, ThingRow>(),
    brands: new Map((reg?.brands ?? []).map((b) => [b.id, b])),
    tags: new Map((reg?.tags ?? []).map((x) => [x.id, x])),
  };
  // The thing's own type's fields win over another type's field with the same key.
  const fields: FieldDefs = new Map();
  for (const f of reg?.fields ?? []) if (!fields.has(f.key)) fields.set(f.key, f);
  for (const { field } of effectiveFields(thing?.typeId, reg?.typesById ?? new Map(), reg?.fields ?? [], true)) fields.set(field.key, field);
  return { user, role, reg, names, fields };
}

function Entries({ thingId, version, canEdit }: { thingId: string; version: number; canEdit: boolean }) {
  const i18n = useI18n();
  const { t, dateTime } = i18n;
  const [note, setNote] = useState<string | null>(null);
  // Again whenever the server's version of the thing changes (a shape brought a new change).
  const { items, error, reload, fail } = useThingHistory(thingId, version);
  const { user, role, reg, names, fields } = useHistoryContext(thingId, items);
  const mayUndo = (h: Entry) =>
    canEdit && undoVerdict({ actorUserId: h.actor.id, undoableUntil: h.undoable_until }, { type: "user", userId: user.id, role }, new Date()) === "ok";
  return (
    <>
      <Notice kind="error">{error}</Notice>
      <Notice>{note}</Notice>
      {items ? (
        <ol className="history">
          {items.map((h) => {
            const summary = historySummary(h, i18n);
            return (
              <li key={h.id}>
                <span>{summary}</span> <span className="meta">{`${historyActor(h, i18n)} · ${dateTime(h.at)}`}</span>
                <HistoryChanges entry={h} fields={fields} reg={reg} names={names} i18n={i18n} />
                {h.aiCall ? (
                  <span className="ai-line" data-ai-call="">
                    {aiCallParts(h.aiCall, i18n).join(" · ")}
                  </span>
                ) : null}
                {mayUndo(h) ? (
                  <button
                    type="button"
                    aria-label={`${t("thing.undo")}: ${summary}`}
                    onClick={() =>
                      void undoHistoryEntry(h.id).then(() => {
                        setNote(t("thing.undone"));
                        void reload();
                      }, fail)
                    }
                  >
                    {t("thing.undo")}
                  </button>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
    </>
  );
}
