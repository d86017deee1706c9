/**
 * The frame of every signed-in screen: header with the sync badge, the navigation (a bottom bar
 * on phones, a side bar on desktops: styles.css), and the banner when the session was lost.
 *
 * On a phone the bar holds the four places people go most and "More", which opens the rest above
 * the bar: seven tabs do not fit 360 px. A desktop's side bar shows them all and no "More".
 */
import { useEffect, useState, type ReactNode } from "react";
import { useI18n } from "./i18n/i18n.js";
import { Link, useLocation } from "./router.js";
import { useOnline, useOutbox } from "./data.js";
import { useReady } from "./session.js";
import { paths, routes } from "./routes.js";

const LAST_LOCATION = "lastLocation";
/** Tabs a phone's bar shows besides "More" (when there are more than this many). */
const PHONE_TABS = 4;
/**
 * Whether "More" is open, and on which screen, kept outside the component: a screen that finishes
 * loading (the first sync after signing in) draws its Shell anew, and a menu just opened stays open.
 */
const more = { open: false, path: "" };

export function Shell(props: { locationId?: string; locationName?: string; inboxCount?: number; children: ReactNode }) {
  const { locationName, inboxCount, children } = props;
  // Screens outside a location (sync, settings) keep the location's navigation of the last one opened.
  useEffect(() => {
    if (props.locationId) localStorage.setItem(LAST_LOCATION, props.locationId);
  }, [props.locationId]);
  const locationId = props.locationId ?? localStorage.getItem(LAST_LOCATION) ?? undefined;
  const { t, num } = useI18n();
  const { db, sessionLost } = useReady();
  const online = useOnline();
  const outbox = useOutbox(db);
  const waiting = outbox?.filter((e) => e.state === "pending").length ?? 0;
  const { path } = useLocation();
  const [moreOpen, setMoreState] = useState(() => more.open && more.path === path);
  const setMoreOpen = (open: boolean) => {
    more.open = open;
    more.path = path;
    setMoreState(open);
  };
  // Choosing a screen closes it; the same screen drawn anew (it finished loading) keeps it open.
  useEffect(() => {
    if (more.path !== path) setMoreOpen(false);
  }, [path]);
  const items: { to: string; label: string; badge?: number }[] = locationId
    ? [
        { to: paths.places({ locationId }), label: t("nav.places") },
        { to: paths.things({ locationId }), label: t("nav.things") },
        { to: paths.capture({ locationId }), label: t("nav.capture") },
        { to: paths.inbox({ locationId }), label: t("nav.inbox"), ...(inboxCount ? { badge: inboxCount } : {}) },
        { to: paths.members({ locationId }), label: t("nav.members") },
        { to: paths.locations(), label: t("nav.locations") },
        { to: paths.sync(), label: t("nav.sync") },
        { to: paths.settings(), label: t("nav.settings") },
      ]
    : [
        { to: paths.locations(), label: t("nav.locations") },
        { to: paths.sync(), label: t("nav.sync") },
        { to: paths.settings(), label: t("nav.settings") },
      ];
  const extra = (i: number) => items.length > PHONE_TABS && i >= PHONE_TABS;
  return (
    <div className="shell">
      <a className="skip" href="#main">
        {t("app.skip")}
      </a>
      <header className="top">
        <Link to={paths.locations()} className="brand" aria-label={`${t("app.name")}: ${t("nav.locations")}`}>
          {t("app.name")}
        </Link>
        {locationName ? <span className="where">{locationName}</span> : null}
        <Link to={paths.scan()} className="badge scan" aria-current={routes.scan.match(path) ? "page" : undefined}>
          {t("scan.title")}
        </Link>
        {/* Named by its own words, not an aria-label: the name then holds what is shown (WCAG 2.5.3) and axe can tell
            so in Arabic too; the dot is drawn by CSS (.badge::before). */}
        <Link to={paths.sync()} className={`badge ${online ? "on" : "off"}`}>
          <span className="visually-hidden">{`${t("nav.sync")}: `}</span>
          {online ? t("common.online") : t("common.offline")}
          {waiting ? (
            <>
              <span className="count" aria-hidden="true">
                {num(waiting)}
              </span>
              <span className="visually-hidden">{`, ${t("sync.badge", { count: waiting })}`}</span>
            </>
          ) : null}
        </Link>
      </header>
      {sessionLost ? (
        <p className="banner" role="alert">
          {t("auth.signedOutSync")} <Link to={paths.signIn()}>{t("auth.signIn")}</Link>
        </p>
      ) : null}
      <nav
        className={`nav${moreOpen ? " open" : ""}`}
        aria-label={t("nav.main")}
        onKeyDown={(e) => {
          if (e.key === "Escape") setMoreOpen(false);
        }}
      >
        <ul>
          {items.map((item, i) => (
            <li key={item.to} className={extra(i) ? "extra" : undefined}>
              <Link to={item.to} aria-current={path.startsWith(item.to) ? "page" : undefined}>
                {item.label}
                {item.badge ? (
                  <span className="count" aria-label={`(${num(item.badge)})`}>
                    {num(item.badge)}
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
          {items.length > PHONE_TABS ? (
            <li className="more">
              <button
                type="button"
                aria-expanded={moreOpen}
                className={items.some((item, i) => extra(i) && path.startsWith(item.to)) ? "current" : undefined}
                onClick={() => setMoreOpen(!moreOpen)}
              >
                {t("nav.more")}
              </button>
            </li>
          ) : null}
        </ul>
      </nav>
      <main id="main" className="content">
        {children}
      </main>
    </div>
  );
}
