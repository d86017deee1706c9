/**
 * The public page of a share link (/s/:id#token): read-only, for someone with no account. The
 * token comes from the URL's fragment (never sent to a server by the browser) and goes to the API
 * in the X-Share-Token header only; nothing of a session is used. "More" loads the next page.
 */
import { useState } from "react";
import type { SharedThing } from "../../../shared/share-links.js";
import { useI18n, type MessageKey } from "../../ui/i18n/i18n.js";
import { useSharePreview } from "./hooks.js";

function pathText(path: SharedThing["path"], t: (k: MessageKey) => string): string {
  return path.map((p) => (p.isUnplaced ? t("share.page.unplaced") : (p.name ?? "…"))).join(" › ");
}

function SharedThingView({ thing, heading }: { thing: SharedThing; heading: boolean }) {
  const { t, num } = useI18n();
  const name = thing.name ?? t("common.unnamed");
  const typeLabel = thing.type.name ?? (thing.type.builtinKey ? t(`type.${thing.type.builtinKey}` as MessageKey) : "");
  return (
    <div className="shared-thing">
      {thing.photo ? (
        <img className="shared-photo" src={thing.photo.thumbUrl ?? thing.photo.url} alt={name} loading="lazy" referrerPolicy="no-referrer" />
      ) : null}
      <div className="stack">
        {heading ? <h1>{name}</h1> : <strong>{name}</strong>}
        <span className="meta">
          {[
            typeLabel,
            thing.quantity !== 1 ? t("share.page.quantity", { n: num(thing.quantity) }) : "",
            thing.condition ? t(`share.condition.${thing.condition}`) : "",
          ]
            .filter(Boolean)
            .join(" · ")}
        </span>
        {thing.path.length ? <span className="meta">{pathText(thing.path, t)}</span> : null}
        {thing.description ? <p>{thing.description}</p> : null}
      </div>
    </div>
  );
}

export function SharePreviewScreen({ id }: { id: string }) {
  const { t, num, dateTime } = useI18n();
  const [token] = useState(() => decodeURIComponent(globalThis.location.hash.replace(/^#/, "")));
  const { state, more, loadingMore } = useSharePreview(id, token);

  let body;
  if (state.kind === "loading") body = <p role="status">{t("share.page.loading")}</p>;
  else if (state.kind === "offline") body = <p role="alert">{t("share.page.offline")}</p>;
  else if (state.kind === "unavailable") body = <p role="alert">{t("share.page.unavailable")}</p>;
  else {
    const p = state.preview;
    const heading = p.thing ? null : <h1>{p.title ?? p.place?.name ?? t("share.scope.view")}</h1>;
    body = (
      <>
        {p.thing ? <SharedThingView thing={p.thing} heading /> : heading}
        {p.thing && p.title ? <p className="meta">{p.title}</p> : null}
        {p.place && p.place.path.length ? <p className="meta">{pathText(p.place.path, t)}</p> : null}
        {p.total || !p.thing ? (
          <section aria-label={p.thing ? t("share.page.inside") : t("share.page.things")}>
            <h2>
              {p.thing ? t("share.page.inside") : t("share.page.things")}{" "}
              <span className="meta">{t("share.page.count", { shown: num(p.items.length), total: num(p.total) })}</span>
            </h2>
            {p.items.length ? (
              <ul className="shared-items">
                {p.items.map((item, i) => (
                  <li key={i}>
                    <SharedThingView thing={item} heading={false} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="meta">{t("share.page.empty")}</p>
            )}
            {p.nextPage !== null ? (
              <button type="button" disabled={loadingMore} onClick={() => void more()}>
                {t("share.page.more")}
              </button>
            ) : null}
          </section>
        ) : null}
        <p className="meta">{t("share.page.expires", { date: dateTime(p.expiresAt) })}</p>
      </>
    );
  }
  return (
    <main className="shared-page stack" aria-label={t("share.page.readOnly")}>
      <p className="meta">{t("share.page.readOnly")}</p>
      {body}
    </main>
  );
}
