/** One thing of a box check: seen, not here, or part of it here (with how many), and what is known of it. */
import type { ThingRow } from "../../db/rows.js";
import "./field.css";
import { useI18n } from "../../ui/i18n/i18n.js";
import { thingName } from "../../ui/names.js";

export type Mark = { kind: "seen" } | { kind: "notHere" } | { kind: "split"; quantity: string };

/** "Last seen …" or "Uncertain since …": what the device knows of a thing's last sighting. */
export function SeenState({ thing, bare }: { thing: Pick<ThingRow, "lastSeenAt" | "missingSince">; bare?: boolean }) {
  const { t, dateTime } = useI18n();
  if (thing.missingSince) return <span className="uncertain">{t("check.uncertainSince", { date: dateTime(thing.missingSince) })}</span>;
  // Bare: under a "Last seen" heading, the date alone.
  if (thing.lastSeenAt) return <span className="meta">{bare ? dateTime(thing.lastSeenAt) : t("check.lastSeen", { date: dateTime(thing.lastSeenAt) })}</span>;
  return <span className="meta">{t("check.neverSeen")}</span>;
}

export function BoxFinding(props: { thing: ThingRow; mark: Mark | undefined; onMark: (m: Mark | undefined) => void; movedIn?: boolean }) {
  const { thing, mark, onMark, movedIn } = props;
  const { t, num } = useI18n();
  const name = thingName(thing, t);
  const group = `mark-${thing.id}`;
  return (
    <li className="finding">
      <fieldset>
        <legend>
          {name} {Number(thing.quantity) !== 1 ? <span className="meta">× {num(Number(thing.quantity))}</span> : null}
        </legend>
        <SeenState thing={thing} />
        {movedIn ? (
          <p className="meta">{t("check.foundHere")}</p>
        ) : (
          <div className="choices">
            <label>
              <input type="radio" name={group} checked={mark?.kind === "seen"} onChange={() => onMark({ kind: "seen" })} />
              {t("check.seen")}
            </label>
            <label>
              <input type="radio" name={group} checked={mark?.kind === "notHere"} onChange={() => onMark({ kind: "notHere" })} />
              {t("check.notHere")}
            </label>
            <label>
              <input type="radio" name={group} checked={mark?.kind === "split"} onChange={() => onMark({ kind: "split", quantity: "" })} />
              {t("check.partHere")}
            </label>
            {mark ? (
              <button type="button" className="link" onClick={() => onMark(undefined)}>
                {t("check.clear")}
              </button>
            ) : null}
          </div>
        )}
        {mark?.kind === "split" ? (
          <label>
            {t("check.howMany")}
            <input inputMode="decimal" value={mark.quantity} onChange={(e) => onMark({ kind: "split", quantity: e.target.value })} />
          </label>
        ) : null}
        {movedIn ? (
          <button type="button" className="link" onClick={() => onMark(undefined)}>
            {t("check.removeFound", { name })}
          </button>
        ) : null}
      </fieldset>
    </li>
  );
}
