/**
 * Saving the thing as a template offered in the chosen locations of the account.
 */
import { useState } from "react";
import { v7 as uuidv7 } from "uuid";
import type { LocationRow, ThingRow } from "../../db/rows.js";
import { enqueueRegistry } from "../../sync/registry-enqueue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { thingName } from "../../ui/names.js";
import { Notice } from "../../ui/Notice.js";

export function SaveTemplate({ locationId, thing, locations }: { locationId: string; thing: ThingRow; locations: LocationRow[] }) {
  const { t } = useI18n();
  const { db } = useReady();
  const [name, setName] = useState(thing.name ?? "");
  const [chosen, setChosen] = useState<string[]>([locationId]);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <details className="save-template">
      <summary>{t("templates.save")}</summary>
      <form
        className="stack"
        aria-label={t("templates.save")}
        onSubmit={(e) => {
          e.preventDefault();
          const n = name.trim() || thingName(thing, t);
          if (!chosen.length) return setError(t("templates.pickLocation"));
          setError(null);
          void enqueueRegistry(db, {
            name: "template.create",
            locationId,
            args: { id: uuidv7(), thingId: thing.id, name: n.slice(0, 80), locationIds: chosen.slice(0, 100) },
          }).then(() => setNote(t("templates.saved", { name: n })));
        }}
      >
        <label>
          {t("templates.name")}
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} />
        </label>
        <fieldset>
          <legend>{t("templates.offeredIn")}</legend>
          {locations.map((l) => (
            <label key={l.id}>
              <input
                type="checkbox"
                checked={chosen.includes(l.id)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, l.id] : chosen.filter((x) => x !== l.id))}
              />
              {l.name}
            </label>
          ))}
        </fieldset>
        <p className="hint">{t("templates.help")}</p>
        <Notice kind="error">{error}</Notice>
        <button type="submit">{t("templates.saveButton")}</button>
        <Notice>{note}</Notice>
      </form>
    </details>
  );
}
