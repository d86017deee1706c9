/**
 * What the thing page adds for custom fields: a secret value revealed on request (online only;
 * the password again when the server asks for fresh re-authentication), the thing's tags, and
 * saving the thing as a template for the account's locations.
 */
import { useState } from "react";
import { v7 as uuidv7 } from "uuid";
import type { LocationRow, TagRow, ThingRow } from "../../db/rows.js";
import { ApiError } from "../../sync/api.js";
import type { View } from "../../sync/optimistic-registries.js";
import { enqueueRegistry } from "../../sync/registry-enqueue.js";
import { formatFieldValue } from "../../ui/field-format.js";
import type { FieldDef } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { thingName } from "../../ui/names.js";
import { errorText } from "../account/SignIn.js";
import { queueThingUpdate } from "../../ops/things/thing.update.js";
import { Notice } from "../../ui/Notice.js";
import { reauthenticate, revealSecret } from "./hooks.js";

/** The answer of a reveal: the value (its shape is the field kind's). */
const revealedValue = (r: unknown) => (r && typeof r === "object" && "value" in r ? r.value : r);

export function SecretValue({ thingId, def, label }: { thingId: string; def: FieldDef; label: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [shown, setShown] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);

  const reveal = async () => {
    setError(null);
    if (!navigator.onLine) return setError(t("fields.revealOffline"));
    try {
      const r = await revealSecret(thingId, def.key);
      const v = revealedValue(r);
      setShown(v === null || v === undefined ? t("fields.notSet") : formatFieldValue(def, v, i18n));
      setAsking(false);
    } catch (err) {
      if (err instanceof ApiError && err.code === "reauth_required") setAsking(true);
      else if (err instanceof ApiError && err.offline) setError(t("fields.revealOffline"));
      else setError(errorText(err));
    }
  };

  return (
    <span className="secret">
      {shown !== null ? (
        <>
          <span className="secret-value">{shown}</span>{" "}
          <button type="button" className="link" onClick={() => setShown(null)}>
            {t("fields.hide")}
          </button>
        </>
      ) : (
        <>
          <span className="meta">{t("fields.hidden")}</span>{" "}
          <button type="button" className="link" aria-label={t("fields.revealLabel", { label })} onClick={() => void reveal()}>
            {t("fields.reveal")}
          </button>
        </>
      )}
      {asking ? (
        <form
          className="row-form"
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            void reauthenticate(password).then(
              () => {
                setPassword("");
                return reveal();
              },
              (err: unknown) => setError(err instanceof ApiError && err.offline ? t("fields.revealOffline") : errorText(err)),
            );
          }}
        >
          <label>
            {t("fields.reauth")}
            <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
          </label>
          <button type="submit">{t("fields.reauthButton")}</button>
        </form>
      ) : null}
      <Notice kind="error">{error}</Notice>
    </span>
  );
}

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
                    className="tag-remove"
                    aria-label={t("tags.remove", { name: label })}
                    onClick={() => void set(mine.filter((x) => x !== id))}
                  >
                    ✕
                  </button>
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
