/**
 * Members and invitations of a location (owners and admins manage; everyone else sees the list):
 * members a page at a time, invitations (revoke, resend), managed accounts, and the way to the
 * location's settings. Needs the network.
 */
import { useState } from "react";
import type { InviteCreated } from "../../../shared/members.js";
import { ROLES, type Role } from "../../../shared/roles.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { CopyField } from "../../ui/CopyField.js";
import { Invitations } from "./Invitations.js";
import { ManagedAccounts } from "./ManagedAccounts.js";
import { Notice } from "../../ui/Notice.js";
import { OnlineOnly } from "../../ui/OnlineOnly.js";
import { Shell } from "../../ui/Shell.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";
import { createInvite, removeMember, setMemberRole, useMembers } from "./hooks.js";

export function MembersScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const data = useLocationScreen(locationId);
  return (
    <Shell locationId={locationId} locationName={data?.location?.name ?? ""} inboxCount={data?.inbox.length ?? 0}>
      <h1>{t("members.title")}</h1>
      <OnlineOnly>
        <Members locationId={locationId} canManage={data?.canManage ?? false} />
      </OnlineOnly>
    </Shell>
  );
}

function Members({ locationId, canManage }: { locationId: string; canManage: boolean }) {
  const { t } = useI18n();
  const { user } = useReady();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Exclude<Role, "owner">>("member");
  const [invite, setInvite] = useState<(InviteCreated & { email: string }) | null>(null);
  const [invites, setInvites] = useState(0);

  // The first page again after a change (load), or the next one (more).
  const { items: members, hasMore, more, error, setError, fail, reload: load } = useMembers(locationId);

  return (
    <>
      {canManage ? (
        <p>
          <Link to={paths.webhooks({ locationId })}>{t("webhooks.link")}</Link> ·{" "}
          <Link to={paths.locationSettings({ locationId })}>{t("location.settings")}</Link>
        </p>
      ) : null}
      <Notice kind="error">{error}</Notice>
      {!canManage ? <p className="hint">{t("members.onlyAdmins")}</p> : null}
      <ul className="list">
        {(members ?? []).map((m) => (
          <li key={m.userId} className="member">
            <span>
              {m.displayName} {m.userId === user.id ? t("members.you") : ""} <span className="meta">{m.email ?? ""}</span>
            </span>
            {canManage && m.role !== "owner" && m.userId !== user.id ? (
              <>
                <label className="compact">
                  <span className="visually-hidden">{t("members.role", { name: m.displayName })}</span>
                  <select
                    aria-label={t("members.role", { name: m.displayName })}
                    value={m.role}
                    onChange={(e) => void setMemberRole(locationId, m, e.target.value).then(load, fail)}
                  >
                    {ROLES.filter((r) => r !== "owner").map((r) => (
                      <option key={r} value={r}>
                        {t(`role.${r}`)}
                      </option>
                    ))}
                  </select>
                </label>
                <button
                  className="icon-close"
                  type="button"
                  aria-label={t("members.remove", { name: m.displayName })}
                  onClick={() => void removeMember(locationId, m.userId).then(load, fail)}
                />
              </>
            ) : (
              <span className="meta">{t(`role.${m.role}`)}</span>
            )}
          </li>
        ))}
      </ul>
      {hasMore ? (
        <button type="button" onClick={() => void more().catch(fail)}>
          {t("common.more")}
        </button>
      ) : null}
      {canManage ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            void createInvite(locationId, { role, ...(email.trim() ? { email: email.trim() } : {}) }).then((r) => {
              setInvite({ ...r, email: email.trim() });
              setInvites((n) => n + 1);
            }, fail);
          }}
        >
          <h2>{t("members.invite")}</h2>
          <label>
            {t("members.inviteEmail")}
            <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <label>
            {t("members.inviteRole")}
            <select aria-label={t("members.inviteRole")} value={role} onChange={(e) => setRole(e.target.value as Exclude<Role, "owner">)}>
              {(["admin", "member", "viewer"] as const).map((r) => (
                <option key={r} value={r}>
                  {t(`role.${r}`)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">{t("members.createInvite")}</button>
          {invite ? (
            <>
              <CopyField label={t("members.inviteLink")} value={`${window.location.origin}${paths.invite()}#token=${encodeURIComponent(invite.token)}`} />
              <p className="hint">{t("invite.onceHint")}</p>
              {invite.mailed ? <p className="hint">{t("invite.mailed", { email: invite.email })}</p> : null}
            </>
          ) : null}
        </form>
      ) : null}
      {canManage ? <Invitations locationId={locationId} version={invites} /> : null}
      {canManage ? <ManagedAccounts locationId={locationId} managed={members && members.filter((m) => m.email === null)} onChange={() => void load()} /> : null}
    </>
  );
}
