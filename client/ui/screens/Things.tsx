/** The things of a location, searchable by name, serial, model or short code, filterable by place. */
import { useEffect, useMemo, useState } from "react";
import { useI18n } from "../i18n/i18n.js";
import { FirstSyncProgress } from "../parts/FirstSync.js";
import { Hint } from "../parts/Hint.js";
import { PhotoImage } from "../parts/PhotoImage.js";
import { Shell } from "../parts/Shell.js";
import { Link, navigate, useLocation } from "../router.js";
import { placeName, thingName, typeName, wherePath } from "../names.js";
import { useThingsList } from "../data.js";
import { THINGS_LIST_LIMIT } from "../things-list.js";
import { useReady } from "../session.js";
import { useLoans } from "../parts/LoanData.js";

export function ThingsScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const { query } = useLocation();
  const q = query.get("q") ?? "";
  const placeId = query.get("place") ?? "";
  // The first things by name, read from an index (things-list.ts): the list does not wait for
  // the first sync to store every thing, and never holds them all.
  // "Show more" adds a page at a time; a new search or place starts again from one page.
  const [limit, setLimit] = useState(THINGS_LIST_LIMIT);
  useEffect(() => setLimit(THINGS_LIST_LIMIT), [locationId, q, placeId]);
  const data = useThingsList(db, locationId, { q, placeId, limit });
  const loans = useLoans(db, locationId);

  const setQuery = (next: { q?: string; place?: string }) => {
    const params = new URLSearchParams();
    const nq = next.q ?? q;
    const np = next.place ?? placeId;
    if (nq) params.set("q", nq);
    if (np) params.set("place", np);
    const s = params.toString();
    navigate(`/l/${locationId}/things${s ? `?${s}` : ""}`, { replace: true });
  };

  const view = useMemo(() => {
    if (!data) return [];
    const places = new Map(data.places.map((p) => [p.id, p]));
    const types = new Map(data.types.map((ty) => [ty.id, ty]));
    return data.things.map((th) => ({ th, where: wherePath(th, places, data.known, t), type: typeName(th.typeId ? types.get(th.typeId) : undefined, t) }));
  }, [data, t]);

  return (
    <Shell locationId={locationId} locationName={data?.location?.name ?? ""} inboxCount={data?.inboxCount ?? 0}>
      <div className="title-row">
        <h1>{t("things.title")}</h1>
        <Link to={`/l/${locationId}/types`}>{t("types.link")}</Link>
        <Link to={`/l/${locationId}/loans`}>
          {t("loans.link")}
          {loans?.counts.overdue ? <span className="badge warn">{t("loans.overdueBadge", { count: loans.counts.overdue })}</span> : null}
        </Link>
        <Link to={`/l/${locationId}/report`}>{t("report.link")}</Link>
      </div>
      <FirstSyncProgress />
      {data && data.things.length === 0 ? <Hint id="things.empty" /> : null}
      <div className="filters">
        <label>
          {t("things.search")}
          <input type="search" value={q} onChange={(e) => setQuery({ q: e.target.value })} />
        </label>
        <label>
          {t("things.place")}
          <select aria-label={t("things.place")} value={placeId} onChange={(e) => setQuery({ place: e.target.value })}>
            <option value="">{t("things.allPlaces")}</option>
            {(data?.places ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {placeName(p, t)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="meta" role="status">
        {t("things.count", { count: view.length })}
      </p>
      {view.length ? (
        <ul className="list" aria-label={t("things.title")}>
          {view.map(({ th, where, type }) => (
            <li key={th.id}>
              <Link to={`/l/${locationId}/things/${th.id}`}>
                <PhotoImage fileId={th.coverFileId} size="thumb" alt="" />
                <strong>{thingName(th, t)}</strong>
                <span className="meta">
                  {type}
                  {where ? ` · ${where}` : ""}
                  {th.lifecycle === "draft" ? ` · ${t("lifecycle.draft")}` : ""}
                </span>
                {loans?.byThing.get(th.id)?.has("out") ? <span className="badge">{t("badge.lent")}</span> : null}
                {loans?.byThing.get(th.id)?.has("in") ? <span className="badge">{t("badge.borrowed")}</span> : null}
                {th.pending ? <span className="pending">{t("common.notSynced")}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("things.none")}</p>
      )}
      {data?.more ? (
        <button type="button" onClick={() => setLimit((n) => n + THINGS_LIST_LIMIT)}>
          {t("things.more")}
        </button>
      ) : null}
    </Shell>
  );
}
