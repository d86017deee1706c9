/**
 * The things of a location, searched on the device by what they are and where (search/thing-search.ts),
 * filtered by a place with everything inside it.
 */
import { useEffect, useMemo, useState } from "react";
import type { PlaceRow, TypeRow } from "../../db/rows.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { FirstSyncProgress } from "../../ui/FirstSync.js";
import { Hint } from "../../ui/Hint.js";
import { PhotoImage } from "../photos/PhotoImage.js";
import { Shell } from "../../ui/Shell.js";
import { Link, navigate, useLocation } from "../../ui/router.js";
import { placeName, thingName, typeName, wherePath } from "../../ui/names.js";
import { useThingsList } from "../../ui/data.js";
import { THINGS_LIST_LIMIT } from "../../ui/things-list.js";
import { useReady } from "../../ui/session.js";
import { useLoans } from "../loans/LoanData.js";
import { paths } from "../../ui/routes.js";

export function ThingsScreen({ locationId }: { locationId: string }) {
  const { t, lang } = useI18n();
  const { db } = useReady();
  const { query } = useLocation();
  const q = query.get("q") ?? "";
  const placeId = query.get("place") ?? "";
  // The first things by name, read from an index (things-list.ts): the list does not wait for
  // the first sync to store every thing, and never holds them all.
  // "Show more" adds a page at a time; a new search or place starts again from one page.
  const [limit, setLimit] = useState(THINGS_LIST_LIMIT);
  useEffect(() => setLimit(THINGS_LIST_LIMIT), [locationId, q, placeId]);
  const labels = useMemo(() => ({ type: (ty: TypeRow) => typeName(ty, t), place: (p: PlaceRow) => placeName(p, t) }), [t]);
  const data = useThingsList(db, locationId, { q, placeId, limit }, labels, lang);
  const loans = useLoans(db, locationId);

  const setQuery = (next: { q?: string; place?: string }) => {
    const params = new URLSearchParams();
    const nq = next.q ?? q;
    const np = next.place ?? placeId;
    if (nq) params.set("q", nq);
    if (np) params.set("place", np);
    navigate(paths.things({ locationId }, params), { replace: true });
  };

  // Each place by its path ("Garage › Shelf 2"), in tree order: choosing one keeps the places inside it too.
  const placeOptions = useMemo(() => {
    const byId = new Map((data?.places ?? []).map((p) => [p.id, p]));
    const path = (p: PlaceRow) => {
      const names: string[] = [];
      for (let at: PlaceRow | undefined = p, depth = 0; at && depth < 20; depth++, at = at.parentId ? byId.get(at.parentId) : undefined)
        names.unshift(placeName(at, t));
      return names;
    };
    return [...byId.values()]
      .map((p) => ({ id: p.id, names: path(p) }))
      .sort((a, b) => {
        // Name by name from the top, so a place's children follow it.
        for (let i = 0; i < Math.min(a.names.length, b.names.length); i++) {
          const c = a.names[i]!.localeCompare(b.names[i]!);
          if (c) return c;
        }
        return a.names.length - b.names.length;
      })
      .map(({ id, names }) => ({ id, path: names.join(" › ") }));
  }, [data, t]);

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
        <Link to={paths.types({ locationId })}>{t("types.link")}</Link>
        <Link to={paths.loans({ locationId })}>
          {t("loans.link")}
          {loans?.counts.overdue ? <span className="badge warn">{t("loans.overdueBadge", { count: loans.counts.overdue })}</span> : null}
        </Link>
        <Link to={paths.report({ locationId })}>{t("report.link")}</Link>
      </div>
      <FirstSyncProgress />
      {data && data.things.length === 0 ? <Hint id="things.empty" /> : null}
      <div className="filters">
        <label>
          {t("things.search")}
          <input type="search" value={q} placeholder={t("search.hint")} onChange={(e) => setQuery({ q: e.target.value })} />
        </label>
        <label>
          {t("things.place")}
          <select aria-label={t("things.place")} value={placeId} onChange={(e) => setQuery({ place: e.target.value })}>
            <option value="">{t("things.allPlaces")}</option>
            {placeOptions.map(({ id, path }) => (
              <option key={id} value={id}>
                {path}
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
              <Link to={paths.thing({ locationId, thingId: th.id })}>
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
