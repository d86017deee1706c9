/**
 * A location's settings (owners and admins): its name and whether viewers see money; the owner
 * alone requires two-factor, sets who may reveal secret fields, transfers the location to another
 * member or deletes it (both with the name typed again; the server checks it too); owners and admins
 * read its security activity. Needs the network.
 */
import { useState } from "react";
import type { Location } from "../../../shared/locations.js";
import type { Member, MemberList } from "../../../shared/members.js";
import type { Role } from "../../../shared/roles.js";
import { api } from "../../sync/api.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { AuditActivity } from "../account/AuditActivity.js";
import { Notice } from "../../ui/Notice.js";
import { OnlineOnly, useOnlineLoad } from "../../ui/OnlineOnly.js";
import { Shell } from "../../ui/Shell.js";
import { navigate } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";

const REVEALERS: Role[] = ["admin", "member", "viewer"];

export function LocationSettingsScreen({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const data = useLocationScreen(locationId);
  return (
    <Shell locationId={locationId} locationName={data?.location?.name ?? ""}>
      <h1>{t("location.settings")}</h1>
      <OnlineOnly>
        <LocationSettings locationId={locationId} />
      </OnlineOnly>
    </Shell>
  );
}

function LocationSettings({ locationId }: { locationId: string }) {
  const { t } = useI18n();
  const { user } = useReady();
  const [loc, setLoc] = useState<Location | null>(null);
  const [name, setName] = useState("");
  const [members, setMembers] = useState<Member[]>([]);
  const [saved, setSaved] = useState<string | null>(null);
  const [newOwner, setNewOwner] = useState("");
  const [transferConfirm, setTransferConfirm] = useState("");
  const [deleteConfirm, setDeleteConfirm] = useState("");

  const {
    error,
    setError,
    fail,
    reload: load,
  } = useOnlineLoad(
    () =>
      Promise.all([
        api<Location>("GET", `/api/v1/locations/${locationId}`).then((l) => {
          setLoc(l);
          setName(l.name);
        }),
        api<MemberList>("GET", `/api/v1/locations/${locationId}/members?limit=200`).then((p) => setMembers(p.items)),
      ]),
    [locationId],
  );

  // A change shows at once; the controls wait for the answer, so the next change carries the new
  // row version. A refusal puts back what the server holds.
  const [saving, setSaving] = useState(false);
  const patch = (body: Partial<Location>) => {
    if (!loc) return;
    setError(null);
    setSaved(null);
    setSaving(true);
    setLoc({ ...loc, ...body });
    void api<Location>("PATCH", `/api/v1/locations/${locationId}`, { ...body, rowVersion: loc.rowVersion })
      .then(
        (l) => {
          setLoc(l);
          setSaved(t("location.saved"));
        },
        (err: unknown) => {
          fail(err);
          void load();
        },
      )
      .finally(() => setSaving(false));
  };

  const isOwner = loc?.role === "owner";
  const others = members.filter((m) => m.userId !== user.id);
  return (
    <>
      <Notice kind="error">{error}</Notice>
      <Notice>{saved}</Notice>
      {loc ? (
        <>
          <form
            className="stack"
            onSubmit={(e) => {
              e.preventDefault();
              patch({ name: name.trim() });
            }}
          >
            <label>
              {t("location.name")}
              <input required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
            </label>
            <button type="submit">{t("common.save")}</button>
          </form>
          <label>
            <input type="checkbox" disabled={saving} checked={loc.viewersSeeMoney} onChange={(e) => patch({ viewersSeeMoney: e.target.checked })} />
            {t("location.viewersSeeMoney")}
          </label>
          <fieldset disabled={!isOwner || saving}>
            <legend>{t("location.reveal")}</legend>
            {!isOwner ? <p className="hint">{t("location.ownerOnly")}</p> : null}
            {REVEALERS.map((r) => (
              <label key={r}>
                <input
                  type="checkbox"
                  checked={loc.secretRevealRoles.includes(r)}
                  onChange={(e) =>
                    patch({ secretRevealRoles: e.target.checked ? [...loc.secretRevealRoles, r] : loc.secretRevealRoles.filter((x) => x !== r) })
                  }
                />
                {t(`role.${r}`)}
              </label>
            ))}
            <label>
              <input type="checkbox" checked={loc.requiresTwoFactor} onChange={(e) => patch({ requiresTwoFactor: e.target.checked })} />
              {t("location.requiresTwoFactor")}
            </label>
          </fieldset>
          {isOwner && loc.isPersonal ? <p className="hint">{t("location.personal")}</p> : null}
          {isOwner && !loc.isPersonal ? (
            <>
              <form
                className="stack"
                aria-labelledby="transfer-title"
                onSubmit={(e) => {
                  e.preventDefault();
                  setError(null);
                  const to = others.find((m) => m.userId === newOwner);
                  void api<Location>("POST", `/api/v1/locations/${locationId}/transfer`, { userId: newOwner, confirm: transferConfirm }).then((l) => {
                    setLoc(l);
                    setTransferConfirm("");
                    setSaved(t("location.transferred", { name: to?.displayName ?? "" }));
                  }, fail);
                }}
              >
                <h2 id="transfer-title">{t("location.transfer")}</h2>
                <p className="hint">{t("location.transferHelp")}</p>
                <label>
                  {t("location.transferTo")}
                  <select required value={newOwner} onChange={(e) => setNewOwner(e.target.value)}>
                    <option value="" />
                    {others.map((m) => (
                      <option key={m.userId} value={m.userId}>
                        {m.displayName}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  {t("location.confirmTransfer")}
                  <input required autoComplete="off" value={transferConfirm} onChange={(e) => setTransferConfirm(e.target.value)} />
                </label>
                <button type="submit" disabled={!newOwner || transferConfirm.trim() !== loc.name.trim()}>
                  {t("location.transferSubmit")}
                </button>
              </form>
              <form
                className="stack"
                aria-labelledby="delete-title"
                onSubmit={(e) => {
                  e.preventDefault();
                  setError(null);
                  void api("DELETE", `/api/v1/locations/${locationId}`, { confirm: deleteConfirm }).then(() => {
                    localStorage.removeItem("lastLocation");
                    navigate(paths.locations(), { replace: true });
                  }, fail);
                }}
              >
                <h2 id="delete-title">{t("location.delete")}</h2>
                <p className="hint">{t("location.deleteHelp")}</p>
                <label>
                  {t("location.confirmDelete")}
                  <input required autoComplete="off" value={deleteConfirm} onChange={(e) => setDeleteConfirm(e.target.value)} />
                </label>
                <button type="submit" className="danger" disabled={deleteConfirm.trim() !== loc.name.trim()}>
                  {t("location.deleteSubmit")}
                </button>
              </form>
            </>
          ) : null}
          {loc.role === "owner" || loc.role === "admin" ? (
            <AuditActivity path={`/api/v1/locations/${locationId}/audit`} intro={t("audit.intro.location")} />
          ) : null}
        </>
      ) : null}
    </>
  );
}
