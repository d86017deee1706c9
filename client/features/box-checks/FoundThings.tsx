/**
 * The things found in a box that belong elsewhere: the ones added so far, a search of the
 * location's things (by name or code) to add one, and a photo of a label to add it by scanning.
 */
import type { ThingRow } from "../../db/rows.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { thingName } from "../../ui/names.js";
import { BoxFinding } from "./BoxFinding.js";

export function FoundThings(props: {
  found: ThingRow[];
  /** What the search finds that could be added. */
  matches: ThingRow[];
  search: string;
  onSearch: (search: string) => void;
  onAdd: (id: string) => void;
  onRemove: (id: string) => void;
  onScan: (file: File) => void;
}) {
  const { found, matches, search } = props;
  const { t } = useI18n();
  return (
    <>
      <h2>{t("check.found")}</h2>
      {found.length ? (
        <ul className="findings">
          {found.map((th) => (
            <BoxFinding key={th.id} thing={th} mark={undefined} movedIn onMark={() => props.onRemove(th.id)} />
          ))}
        </ul>
      ) : null}
      <label>
        {t("check.addFound")}
        <input type="search" value={search} onChange={(e) => props.onSearch(e.target.value)} placeholder={t("check.searchHint")} />
      </label>
      {matches.length ? (
        <ul className="list" aria-label={t("check.matches")}>
          {matches.map((th) => (
            <li key={th.id}>
              <button type="button" className="link" onClick={() => props.onAdd(th.id)}>
                {t("check.add", { name: thingName(th, t) })}
              </button>
            </li>
          ))}
        </ul>
      ) : search.trim() ? (
        <p className="meta">{t("check.noMatch")}</p>
      ) : null}
      <label className="file-button">
        {t("check.scanFound")}
        <input
          type="file"
          accept="image/*"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (file) props.onScan(file);
          }}
        />
      </label>
    </>
  );
}
