/**
 * The lend or borrow form of a thing: a member, a contact or a new person's name, the quantity
 * (at most what the thing holds), a due date and notes. Checked here first, then queued as an op.
 */
import { Decimal } from "decimal.js";
import { useState } from "react";
import { utcDay, type LoanDirection } from "../../../shared/loans.js";
import type { ThingRow } from "../../db/rows.js";
import { type PersonChoice } from "../../ops/loans/loan.create.js";
import { queueLend } from "../../ops/loans/queue.js";
import type { View } from "../../sync/optimistic.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { useLoans, useMembers } from "./LoanData.js";
import { Notice } from "../../ui/Notice.js";

export function LendForm({ thing, direction, onDone }: { thing: View<ThingRow>; direction: LoanDirection; onDone: (msg: string) => void }) {
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
