/**
 * The Loans screen of a location: counts of things lent out, borrowed and overdue, and the loans
 * filtered as the spec's GET /loans filters them (direction, state, person, search by thing or
 * person name). Read from the device (offline too), with this device's waiting loan ops on top.
 */
import { useMemo } from "react";
import { LOAN_DIRECTIONS, LOAN_STATES, isOverdue } from "../../../shared/loans.js";
import { useLive } from "../../ui/data.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { useLoans, useMembers } from "./LoanData.js";
import { Shell } from "../../ui/Shell.js";
import { thingName } from "../../ui/names.js";
import { Link, navigate, useLocation } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { paths } from "../../ui/routes.js";

export function LoansScreen({ locationId }: { locationId: string }) {
  const { t, num, dateTime } = useI18n();
  const { db } = useReady();
  const { query } = useLocation();
  const direction = query.get("direction") ?? "";
  const state = query.get("state") ?? "";
  const personId = query.get("person") ?? "";
  const q = query.get("q") ?? "";
  const members = useMembers(db, locationId);
  const data = useLoans(db, locationId, members);
  const location = useLive(() => db.locations.get(locationId), [db, locationId]);
  // A returned split part is gone once it joined its original again: the original names it.
  const thingIds = useMemo(() => [...new Set((data?.loans ?? []).flatMap((l) => [l.thingId, l.splitFromThingId ?? l.thingId]))], [data]);
  const things = useLive(async () => new Map((await db.things.bulkGet(thingIds)).flatMap((th) => (th ? [[th.id, th] as const] : []))), [db, thingIds]);

  const set = (key: string, value: string) => {
    const params = new URLSearchParams(query);
    if (value) params.set(key, value);
    else params.delete(key);
    navigate(paths.loans({ locationId }, params), { replace: true });
  };

  const people = useMemo(() => {
    const out = new Map<string, string>();
    for (const l of data?.loans ?? []) out.set((l.personUserId ?? l.contactId)!, l.personName);
    return [...out].sort((a, b) => a[1].localeCompare(b[1]));
  }, [data]);

  const thingOf = (l: { thingId: string; splitFromThingId: string | null }) =>
    things?.get(l.thingId) ?? (l.splitFromThingId ? things?.get(l.splitFromThingId) : undefined);
  const shown = useMemo(() => {
    const needle = q.trim().toLocaleLowerCase();
    return (data?.loans ?? []).filter((l) => {
      if (direction && l.direction !== direction) return false;
      if (state === "open" && l.returnedAt) return false;
      if (state === "returned" && !l.returnedAt) return false;
      if (state === "overdue" && !isOverdue(l)) return false;
      if (personId && l.personUserId !== personId && l.contactId !== personId) return false;
      if (needle && !`${l.personName} ${thingOf(l)?.name ?? ""}`.toLocaleLowerCase().includes(needle)) return false;
      return true;
    });
  }, [data, direction, state, personId, q, things]);

  return (
    <Shell locationId={locationId} locationName={location?.name ?? ""}>
      <div className="title-row">
        <h1>{t("loans.title")}</h1>
        <Link to={paths.things({ locationId })}>{t("nav.things")}</Link>
      </div>
      <p className="meta" role="status" aria-label={t("loans.title")}>
        <span>{t("loans.countOut", { count: num(data?.counts.out ?? 0) })}</span>
        {" · "}
        <span>{t("loans.countIn", { count: num(data?.counts.in ?? 0) })}</span>
        {" · "}
        <span>{t("loans.countOverdue", { count: num(data?.counts.overdue ?? 0) })}</span>
      </p>
      <div className="filters">
        <label>
          {t("loans.direction")}
          <select value={direction} onChange={(e) => set("direction", e.target.value)}>
            <option value="">{t("loans.direction.all")}</option>
            {LOAN_DIRECTIONS.map((d) => (
              <option key={d} value={d}>
                {t(`loans.direction.${d}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("loans.state")}
          <select value={state} onChange={(e) => set("state", e.target.value)}>
            <option value="">{t("loans.state.all")}</option>
            {LOAN_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`loans.state.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("loans.person")}
          <select value={personId} onChange={(e) => set("person", e.target.value)}>
            <option value="">{t("loans.person.all")}</option>
            {people.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("loans.search")}
          <input type="search" maxLength={200} value={q} onChange={(e) => set("q", e.target.value)} />
        </label>
      </div>
      {shown.length ? (
        <ul className="list" aria-label={t("loans.title")}>
          {shown.map((l) => (
            <li key={l.id}>
              <Link to={paths.thing({ locationId, thingId: l.returnedAt && l.splitFromThingId ? l.splitFromThingId : l.thingId })}>
                <strong>{thingName(thingOf(l), t)}</strong>
                <span className="meta">
                  {t(l.direction === "out" ? "loans.lentTo" : "loans.borrowedFrom", { person: l.personName })}
                  {l.quantity ? ` · ${num(Number(l.quantity))}` : ""}
                  {l.returnedAt ? ` · ${t("loans.returnedOn", { date: dateTime(l.returnedAt) })}` : l.dueOn ? ` · ${t("loans.due", { date: l.dueOn })}` : ""}
                </span>
                {isOverdue(l) ? <span className="badge warn">{t("loans.overdue")}</span> : null}
                {l.pending ? <span className="pending">{t("common.notSynced")}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("loans.none")}</p>
      )}
    </Shell>
  );
}
