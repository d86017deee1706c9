/** One webhook of a location: its address, on/off switch, delete, its events, and its last deliveries folded away. */
import { useEffect, useState } from "react";
import type { Delivery, Webhook } from "../../../shared/webhooks.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { deleteWebhook, setWebhookActive, webhookDeliveries } from "./hooks.js";

export function WebhookItem({ hook, onChanged, onError }: { hook: Webhook; onChanged: () => void; onError: (err: unknown) => void }) {
  const { t, num, dateTime } = useI18n();
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [active, setActive] = useState(hook.active);
  useEffect(() => setActive(hook.active), [hook.active]);
  return (
    <li className="webhook">
      <div className="member">
        <bdi dir="ltr" className="webhook-url">
          {hook.url}
        </bdi>
        <label className="check">
          <input
            type="checkbox"
            checked={active}
            onChange={(e) => {
              // Shown at once; the list reloads (or the switch goes back) when the server answers.
              const next = e.target.checked;
              setActive(next);
              void setWebhookActive(hook, next).then(onChanged, (err: unknown) => {
                setActive(!next);
                onError(err);
              });
            }}
          />
          {t("webhooks.active")}
        </label>
        <button
          className="icon-close"
          type="button"
          aria-label={t("webhooks.delete", { url: hook.url })}
          onClick={() => void deleteWebhook(hook.id).then(onChanged, onError)}
        />
      </div>
      <p className="meta">{hook.events.map((e) => t(`webhooks.event.${e}`)).join(" · ")}</p>
      {hook.disabledReason ? <p className="meta">{t("webhooks.disabled")}</p> : null}
      <details
        onToggle={(e) => {
          if ((e.target as HTMLDetailsElement).open) void webhookDeliveries(hook.id).then(setDeliveries, onError);
        }}
      >
        <summary>{t("webhooks.deliveries")}</summary>
        {deliveries && deliveries.length === 0 ? <p className="hint">{t("webhooks.noDeliveries")}</p> : null}
        <ul className="list">
          {(deliveries ?? []).map((d) => (
            <li key={d.id}>
              <span>{t(`webhooks.event.${d.eventType}`)}</span>
              <span className="meta">
                {t(`webhooks.status.${d.status}`)} · {t("webhooks.attempts", { count: num(d.attempt) })}
                {d.lastStatusCode ? ` · ${num(d.lastStatusCode)}` : ""} · {dateTime(d.lastAttemptAt ?? d.createdAt)}
              </span>
              {d.lastError ? <span className="meta">{d.lastError}</span> : null}
            </li>
          ))}
        </ul>
      </details>
    </li>
  );
}
