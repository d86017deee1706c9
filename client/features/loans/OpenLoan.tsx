/**
 * One open loan of a thing or of a part split off it: to or from whom, how many, due, overdue,
 * and, for members and up, Return, which offers the place the thing was taken from first.
 */
import { useState } from "react";
import { isOverdue } from "../../../shared/loans.js";
import type { LoanRow, PlaceRow, ThingRow } from "../../db/rows.js";
import { queueReturn } from "../../ops/loans/queue.js";
import type { View } from "../../sync/optimistic.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { placeName, thingName } from "../../ui/names.js";
import { useReady } from "../../ui/session.js";

export function OpenLoan({
  loan,
  canEdit,
  places,
  things,
  onReturned,
}: {
  loan: View<LoanRow>;
  canEdit: boolean;
  places: View<PlaceRow>[];
  things: View<ThingRow>[];
  onReturned: () => void;
}) {
  const { t, num } = useI18n();
  const { db } = useReady();
  const [returnTo, setReturnTo] = useState("");
  const containers = things.filter((th) => th.isContainer && th.id !== loan.thingId && th.id !== loan.splitFromThingId);
  const previous = loan.previousContainerId ? `thing:${loan.previousContainerId}` : loan.previousPlaceId ? `place:${loan.previousPlaceId}` : "";
  const chosen = returnTo || previous;
  const previousName = loan.previousContainerId
    ? thingName(
        things.find((th) => th.id === loan.previousContainerId),
        t,
      )
    : placeName(
        places.find((p) => p.id === loan.previousPlaceId),
        t,
      );
  const who = t(loan.direction === "out" ? "loans.lentTo" : "loans.borrowedFrom", { person: loan.personName });
  return (
    <div className="stack">
      <p>
        <strong>{who}</strong>
        {loan.quantity ? ` · ${num(Number(loan.quantity))}` : ""}
        {loan.dueOn ? ` · ${t("loans.due", { date: loan.dueOn })}` : ""}
        {isOverdue(loan) ? <span className="badge warn">{t("loans.overdue")}</span> : null}
        {loan.pending ? <span className="pending"> {t("common.notSynced")}</span> : null}
      </p>
      {previous ? <p className="meta">{t("loans.previousPlace", { place: previousName })}</p> : null}
      {canEdit ? (
        <form
          className="stack"
          aria-label={`${t("loans.return")}: ${who}`}
          onSubmit={(e) => {
            e.preventDefault();
            const [type, id] = chosen.split(":") as ["place" | "thing", string];
            void queueReturn(db, loan, chosen && chosen !== previous ? { type, id } : undefined).then(onReturned);
          }}
        >
          <label>
            {t("loans.returnTo")}
            <select value={chosen} onChange={(e) => setReturnTo(e.target.value)}>
              {previous ? <option value={previous}>{previousName}</option> : <option value="">{t("loans.choose")}</option>}
              {places
                .filter((p) => `place:${p.id}` !== previous)
                .map((p) => (
                  <option key={p.id} value={`place:${p.id}`}>
                    {placeName(p, t)}
                  </option>
                ))}
              {containers
                .filter((c) => `thing:${c.id}` !== previous)
                .map((c) => (
                  <option key={c.id} value={`thing:${c.id}`}>
                    {thingName(c, t)}
                  </option>
                ))}
            </select>
          </label>
          <button type="submit" className="primary">
            {t("loans.return")}
          </button>
        </form>
      ) : null}
    </div>
  );
}
