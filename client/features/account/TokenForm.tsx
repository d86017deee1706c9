/** Making a personal token: name, read or read-and-write, the locations it may reach, an optional expiry. */
import { useState } from "react";
import type { Location } from "../../../shared/locations.js";
import type { TokenCreated, TokenScope } from "../../../shared/tokens.js";
import { createToken } from "./hooks.js";
import { useI18n } from "../../ui/i18n/i18n.js";

/** The end of the chosen day on this device's clock: a token "until the 3rd" works all of the 3rd. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59.999`).toISOString();

export function TokenForm(props: { locations: Location[]; onCreated: (t: TokenCreated) => void; onError: (err: unknown) => void }) {
  const { t } = useI18n();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<TokenScope>("read");
  const [picked, setPicked] = useState<Set<string>>(new Set(props.locations.length === 1 ? [props.locations[0]!.id] : []));
  const [expiry, setExpiry] = useState("");
  const toggle = (id: string) =>
    setPicked((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const today = new Date().toISOString().slice(0, 10);
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        void createToken({ name: name.trim(), scope, locationIds: [...picked], ...(expiry ? { expiresAt: endOfDay(expiry) } : {}) }).then((made) => {
          setName("");
          setExpiry("");
          props.onCreated(made);
        }, props.onError);
      }}
    >
      <label>
        {t("tokens.name")}
        <input required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <fieldset>
        <legend>{t("tokens.scope")}</legend>
        {(["read", "write"] as TokenScope[]).map((s) => (
          <label key={s} className="check">
            <input type="radio" name="token-scope" value={s} checked={scope === s} onChange={() => setScope(s)} />
            {t(`tokens.scope.${s}`)}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t("tokens.locations")}</legend>
        {props.locations.map((l) => (
          <label key={l.id} className="check">
            <input type="checkbox" checked={picked.has(l.id)} onChange={() => toggle(l.id)} />
            <bdi>{l.name}</bdi>
          </label>
        ))}
        {picked.size === 0 ? <p className="hint">{t("tokens.pickLocation")}</p> : null}
      </fieldset>
      <label>
        {t("tokens.expiry")}
        <input type="date" min={today} value={expiry} onChange={(e) => setExpiry(e.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={picked.size === 0 || !name.trim()}>
        {t("tokens.create")}
      </button>
    </form>
  );
}
