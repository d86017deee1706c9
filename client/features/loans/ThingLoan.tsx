/**
 * A thing's loan on its page: the open loan (to or from whom, due, overdue) with Return, which
 * offers the place the thing was taken from; or, for members and up, "Lend" and "Borrowed from…"
 * forms (a member, a contact, or a new person's name; quantity; due date; notes). Writes are ops
 * in the outbox (client/sync/loan-ops.ts): they work offline.
 */
import { Decimal } from "decimal.js";
import { useState } from "react";
import { isOverdue, utcDay, type LoanDirection } from "../../../shared/loans.js";
import type { LoanRow, PlaceRow, ThingRow } from "../../db/rows.js";
import { queueLend, type PersonChoice } from "../../ops/loans/loan.create.js";
import { queueReturn } from "../../ops/loans/loan.return.js";
import type { View } from "../../sync/optimistic.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { placeName, thingName } from "../../ui/names.js";
import { useReady } from "../../ui/session.js";
import { useLoans, useMembers } from "./LoanData.js";
import { Notice } from "../../ui/Notice.js";

interface Props {
  locationId: string;
  thing: View<ThingRow>;
  canEdit: boolean;
  places: View<PlaceRow>[];
  things: View<ThingRow>[];
}

function LendForm({ thing, direction, onDone }: { thing: View<ThingRow>; direction: LoanDirection; onDone: (msg: string) => void }) {
  const { t } = useI18n();
  const { db } = useReady();
  const members = useMembers(db, thing.locationId);
  const data = useLoans(db, thing.locationId, members);
  const max = new Decimal(thing.quantity).toString();
  const [pick, setPick] = useState("");
  const [name, setName] = useState("");
  const [quantity, setQuantity] = useState(max);
  const [dueOn, setDueOn] = useState("");
  const [notes, setNotes] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    let person: PersonChoice | null = null;
    if (name.trim()) person = { name: name.trim() };
    else if (pick.startsWith("u:")) person = { userId: pick.slice(2) };
    else if (pick.startsWith("c:")) person = { contactId: pick.slice(2) };
    if (!person) return setError(t("loans.needPerson"));
    const q = quantity.trim();
    if (!/^\d+(\.\d{1,3})?$/.test(q) || new Decimal(q).lte(0) || new Decimal(q).gt(thing.quantity)) return setError(t("loans.badQuantity", { max }));
    if (dueOn && dueOn < utcDay(new Date())) return setError(t("loans.badDue"));
    setError(null);
    await queueLend(db, thing, { direction, person, quantity: new Decimal(q).eq(thing.quantity) ? undefined : q, dueOn: dueOn || undefined, notes });
    onDone(t("loans.saved"));
  };
  return (
    <form
      className="stack"
      aria-label={t(direction === "out" ? "loans.lendTitle" : "loans.borrowTitle")}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>{t(direction === "out" ? "loans.lendTitle" : "loans.borrowTitle")}</h3>
      <label>
        {t("loans.pickPerson")}
        <select value={pick} onChange={(e) => setPick(e.target.value)}>
          <option value="">{t("loans.choose")}</option>
          {members.map((m) => (
            <option key={m.userId} value={`u:${m.userId}`}>
              {t("loans.member", { name: m.displayName })}
            </option>
          ))}
          {(data?.contacts ?? []).map((c) => (
            <option key={c.id} value={`c:${c.id}`}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("loans.newPerson")}
        <input value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        {t("loans.quantity")}
        <input inputMode="decimal" value={quantity} onChange={(e) => setQuantity(e.target.value)} />
      </label>
      <label>
        {t("loans.dueOn")}
        <input type="date" value={dueOn} min={utcDay(new Date())} onChange={(e) => setDueOn(e.target.value)} />
      </label>
      <label>
        {t("loans.notes")}
        <textarea value={notes} maxLength={2000} onChange={(e) => setNotes(e.target.value)} />
      </label>
      <Notice kind="error">{error}</Notice>
      <button type="submit" className="primary">
        {t("loans.save")}
      </button>
    </form>
  );
}

function OpenLoan({
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

/** The thing's own open loan, and those of parts split off it (3 of its 5 chairs lent to Sam). */
export function ThingLoan({ locationId, thing, canEdit, places, things }: Props) {
  const { t } = useI18n();
  const { db } = useReady();
  const members = useMembers(db, locationId);
  const data = useLoans(db, locationId, members);
  const [form, setForm] = useState<LoanDirection | null>(null);
  const [note, setNote] = useState<string | null>(null);
  if (!data) return null;
  const open = data.loans.filter((l) => !l.returnedAt && (l.thingId === thing.id || l.splitFromThingId === thing.id));
  const own = open.some((l) => l.thingId === thing.id);
  return (
    <section aria-label={t("loans.title")}>
      <h2>{t("loans.title")}</h2>
      <Notice>{note}</Notice>
      {open.map((l) => (
        <OpenLoan key={l.id} loan={l} canEdit={canEdit} places={places} things={things} onReturned={() => setNote(t("loans.returned"))} />
      ))}
      {!own && canEdit ? (
        <>
          <div className="actions">
            <button type="button" aria-pressed={form === "out"} onClick={() => setForm(form === "out" ? null : "out")}>
              {t("loans.lend")}
            </button>
            <button type="button" aria-pressed={form === "in"} onClick={() => setForm(form === "in" ? null : "in")}>
              {t("loans.borrow")}
            </button>
          </div>
          {form ? (
            <LendForm
              key={form}
              thing={thing}
              direction={form}
              onDone={(msg) => {
                setForm(null);
                setNote(msg);
              }}
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}
