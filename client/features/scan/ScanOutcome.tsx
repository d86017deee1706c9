/**
 * What a scan found, for the outcomes that do not simply open a page: a label not on anything yet
 * (offer to claim it), several things with one barcode, a barcode or text of nothing here.
 */
import { useState } from "react";
import { formatCode, type CodeKind, type ScanResult } from "../../../shared/codes.js";
import { claimCode } from "../../ops/field/queue.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { placeName, thingName } from "../../ui/names.js";
import { Link, navigate } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { Notice } from "../../ui/Notice.js";
import { paths } from "../../ui/routes.js";

/** The page of a thing, or the things of a place (places have no page of their own). */
export const targetPath = (kind: CodeKind, id: string, locationId: string): string =>
  kind === "thing" ? paths.thing({ locationId, thingId: id }) : paths.things({ locationId }, { place: id });

/** Opens a result that names one page; false for the outcomes the screen shows instead. */
export function openResult(result: ScanResult, replace = false): boolean {
  if (result.outcome === "open") navigate(targetPath(result.target.kind, result.target.id, result.target.locationId), { replace });
  else if (result.outcome === "switch_location") navigate(paths.things({ locationId: result.locationId }), { replace });
  else return false;
  return true;
}

/** "Use this label for a box": the boxes (containers) and places of the label's location. */
export function ClaimLabel({ code, locationId }: { code: string; locationId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const data = useLocationScreen(locationId);
  const [choice, setChoice] = useState("");
  if (!data) return <p>{t("common.loading")}</p>;
  const boxes = data.things.filter((th) => th.isContainer && !th.deletedAt).sort((a, b) => thingName(a, t).localeCompare(thingName(b, t)));
  const places = data.places.filter((p) => !p.isUnplaced && !p.deletedAt).sort((a, b) => a.name.localeCompare(b.name));
  const chosen = choice || (boxes[0] ? `thing:${boxes[0].id}` : places[0] ? `place:${places[0].id}` : "");
  return (
    <section className="card" aria-labelledby="claim-h">
      <h2 id="claim-h">{t("claim.title", { code: formatCode(code) })}</h2>
      <p>{t("claim.free", { location: data.location?.name ?? "" })}</p>
      {data.canEdit ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            const [kind, id] = chosen.split(":") as [CodeKind, string];
            if (id) void claimCode(db, locationId, code, kind, id).then(() => navigate(targetPath(kind, id, locationId)));
          }}
        >
          <label>
            {t("claim.for")}
            <select aria-label={t("claim.for")} value={chosen} onChange={(e) => setChoice(e.target.value)}>
              {boxes.length ? (
                <optgroup label={t("claim.boxes")}>
                  {boxes.map((b) => (
                    <option key={b.id} value={`thing:${b.id}`}>
                      {thingName(b, t)}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {places.length ? (
                <optgroup label={t("claim.places")}>
                  {places.map((p) => (
                    <option key={p.id} value={`place:${p.id}`}>
                      {placeName(p, t)}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          </label>
          <button type="submit" className="primary" disabled={!chosen}>
            {t("claim.use")}
          </button>
        </form>
      ) : (
        <p className="hint">{t("claim.membersOnly")}</p>
      )}
    </section>
  );
}

/** The result of a scan that did not open a page by itself. */
export function ScanOutcome({ result, scanned }: { result: ScanResult; scanned: string }) {
  const { t } = useI18n();
  switch (result.outcome) {
    case "claim":
      return <ClaimLabel code={result.code ?? scanned} locationId={result.locationId} />;
    case "candidates":
      return (
        <section aria-labelledby="candidates-h">
          <h2 id="candidates-h">{t("scan.candidates")}</h2>
          <ul className="list">
            {result.candidates.map((c) => (
              <li key={c.id}>
                <Link to={targetPath(c.kind, c.id, c.locationId)}>
                  {c.name || t("common.unnamed")} <span className="meta">{c.locationName}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      );
    case "barcode":
      return <Notice>{t("scan.barcode", { code: result.barcode.code })}</Notice>;
    case "text":
      return (
        <section aria-labelledby="text-h">
          <h2 id="text-h">{t("scan.text")}</h2>
          <p className="scanned-text">{result.text}</p>
        </section>
      );
    case "not_found":
      return <Notice kind="error">{navigator.onLine ? t("scan.notFound", { text: scanned }) : t("scan.notFoundOffline", { text: scanned })}</Notice>;
    default:
      return null;
  }
}
