/**
 * A thing's loan on its page: the open loan (to or from whom, due, overdue) with Return, which
 * offers the place the thing was taken from; or, for members and up, "Lend" and "Borrowed from…"
 * forms (a member, a contact, or a new person's name; quantity; due date; notes). Writes are ops
 * in the outbox (client/sync/loan-ops.ts): they work offline.
 */
import { useState } from "react";
import type { LoanDirection } from "../../../shared/loans.js";
import type { PlaceRow, ThingRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useReady } from "../../ui/session.js";
import { useLoans, useMembers } from "./LoanData.js";
import { Notice } from "../../ui/Notice.js";
import { LendForm } from "./LendForm.js";
import { OpenLoan } from "./OpenLoan.js";

interface Props {
  locationId: string;
  thing: View<ThingRow>;
  canEdit: boolean;
  places: View<PlaceRow>[];
  things: View<ThingRow>[];
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
