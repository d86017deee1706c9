/**
 * A location's webhooks, for its owners and admins: the list with each one's switch and last
 * deliveries, and a form to add one, whose signing secret is shown once with a Copy button. Webhooks
 * are server settings, not synced data: the screen needs the network and says so when there is none.
 */
import { useState } from "react";
import { WEBHOOK_EVENTS, type WebhookCreated, type WebhookEvent } from "../../../shared/webhooks.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { OnlineOnly } from "../../ui/OnlineOnly.js";
import { Shell } from "../../ui/Shell.js";
import { Link } from "../../ui/router.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";
import { createWebhook, useWebhooks } from "./hooks.js";
import { WebhookItem } from "./WebhookItem.js";

export function WebhooksScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const data = useLocationScreen(locationId);
  return (
    <Shell locationId={locationId} locationName={data?.location?.name ?? ""} inboxCount={data?.inbox.length ?? 0}>
      <p>
        <Link to={paths.members({ locationId })}>{t("members.title")}</Link>
      </p>
      <h1>{t("webhooks.title")}</h1>
      <p className="hint">{t("webhooks.intro")}</p>
      {data && !data.canManage ? <p className="hint">{t("webhooks.onlyAdmins")}</p> : null}
      {data?.canManage ? (
        <OnlineOnly>
          <Webhooks locationId={locationId} />
        </OnlineOnly>
      ) : null}
    </Shell>
  );
}

function Webhooks({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const { hooks, error, fail, reload: load } = useWebhooks(locationId);
  return (
    <>
      <Notice kind="error">{error}</Notice>
      {hooks ? (
        <>
          {hooks.length === 0 ? <p className="hint">{t("webhooks.none")}</p> : null}
          <ul className="list webhooks">
            {hooks.map((h) => (
              <WebhookItem key={h.id} hook={h} onChanged={() => void load()} onError={fail} />
            ))}
          </ul>
          {created ? (
            <SecretOnce created={created} onDone={() => setCreated(null)} />
          ) : (
            <CreateForm
              locationId={locationId}
              onCreated={(c) => {
                setCreated(c);
                void load();
              }}
              onError={fail}
            />
          )}
        </>
      ) : null}
    </>
  );
}

function CreateForm(props: { locationId: string; onCreated: (c: WebhookCreated) => void; onError: (err: unknown) => void }) {
  const { t } = useI18n();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<Set<WebhookEvent>>(new Set(["thing.created"]));
  const toggle = (e: WebhookEvent) =>
    setEvents((s) => {
      const next = new Set(s);
      if (!next.delete(e)) next.add(e);
      return next;
    });
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        void createWebhook(props.locationId, { url: url.trim(), events: [...events] }).then((c) => {
          setUrl("");
          props.onCreated(c);
        }, props.onError);
      }}
    >
      <h2>{t("webhooks.add")}</h2>
      <label>
        {t("webhooks.url")}
        <input type="url" dir="ltr" required maxLength={2048} value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://" />
      </label>
      <fieldset>
        <legend>{t("webhooks.events")}</legend>
        {WEBHOOK_EVENTS.map((ev) => (
          <label key={ev} className="check">
            <input type="checkbox" checked={events.has(ev)} onChange={() => toggle(ev)} />
            {t(`webhooks.event.${ev}`)}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={events.size === 0 || !url.trim()}>
        {t("webhooks.create")}
      </button>
    </form>
  );
}

function SecretOnce({ created, onDone }: { created: WebhookCreated; onDone: () => void }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <section className="stack inline" aria-labelledby="webhook-secret-h">
      <h2 id="webhook-secret-h">{t("webhooks.secret")}</h2>
      <p className="hint">{t("webhooks.secretOnce")}</p>
      <input readOnly dir="ltr" aria-label={t("webhooks.secret")} value={created.secret} onFocus={(e) => e.target.select()} />
      <div className="checks">
        <button type="button" onClick={() => void navigator.clipboard?.writeText(created.secret).then(() => setCopied(true))}>
          {copied ? t("webhooks.copied") : t("webhooks.copy")}
        </button>
        <button type="button" onClick={onDone}>
          {t("webhooks.done")}
        </button>
      </div>
    </section>
  );
}
