/** A location's invitations for owners and admins: newest first, a page at a time, each one revocable or resendable while not accepted. */
import { useState } from "react";
import type { Invite } from "../../../shared/members.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { CopyField } from "../../ui/CopyField.js";
import { Notice } from "../../ui/Notice.js";
import { paths } from "../../ui/routes.js";
import { resendInvite, revokeInvite, useInvitations } from "./hooks.js";

export function Invitations({ locationId, version }: { locationId: string; version: number }) {
  const { t, dateTime } = useI18n();
  const [resent, setResent] = useState<{ who: string; link: string; mailed: boolean } | null>(null);

  // Inside the members screen's OnlineOnly: offline, the whole screen says it needs a connection.
  const { items, hasMore, more, error, setError, fail, reload } = useInvitations(locationId, version);

  const who = (i: Invite) => i.email ?? t("invites.anyone");
  const status = (i: Invite) => (i.status === "pending" ? t("invites.status.pending", { date: dateTime(i.expiresAt) }) : t(`invites.status.${i.status}`));
  return (
    <section aria-labelledby="invites-title">
      <h2 id="invites-title">{t("invites.title")}</h2>
      <Notice kind="error">{error}</Notice>
      {items?.length === 0 ? <p className="hint">{t("invites.none")}</p> : null}
      <ul className="list">
        {(items ?? []).map((i) => (
          <li key={i.id} className="member">
            <span>
              {who(i)} <span className="meta">{t(`role.${i.role}`)}</span> <span className="meta">{status(i)}</span>
            </span>
            {i.status === "pending" || i.status === "expired" ? (
              <span className="row">
                <button
                  type="button"
                  aria-label={t("invites.resend", { who: who(i) })}
                  onClick={() => {
                    setError(null);
                    void resendInvite(i.id).then((r) => {
                      setResent({ who: who(i), link: `${window.location.origin}${paths.invite()}#token=${encodeURIComponent(r.token)}`, mailed: r.mailed });
                      void reload();
                    }, fail);
                  }}
                >
                  ↻
                </button>
                <button
                  className="icon-close"
                  type="button"
                  aria-label={t("invites.revoke", { who: who(i) })}
                  onClick={() => {
                    setError(null);
                    void revokeInvite(i.id).then(reload, fail);
                  }}
                />
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {hasMore ? (
        <button type="button" onClick={() => void more().catch(fail)}>
          {t("common.more")}
        </button>
      ) : null}
      {resent ? (
        <div className="stack">
          <CopyField label={t("invites.resent", { who: resent.who })} value={resent.link} />
          {resent.mailed ? <p className="hint">{t("invites.mailed", { who: resent.who })}</p> : null}
        </div>
      ) : null}
    </section>
  );
}
