/**
 * A location's settings (owners and admins): its name and whether viewers see money; the owner
 * alone requires two-factor, sets who may reveal secret fields, transfers the location to another
 * member or deletes it (both with the name typed again; the server checks it too); owners and admins
 * read its security activity. Needs the network.
 */
import { useState } from "react";
import type { Location } from "../../../shared/locations.js";
import type { Role } from "../../../shared/roles.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { AuditActivity } from "../account/AuditActivity.js";
import { Notice } from "../../ui/Notice.js";
import { OnlineOnly } from "../../ui/OnlineOnly.js";
import { Shell } from "../../ui/Shell.js";
import { useReady } from "../../ui/session.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { patchLocation, useLocationSettings } from "./hooks.js";
import { DeleteForm, TransferForm } from "./LocationOwnerForms.js";

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
  const [name, setName] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const { loc, setLoc, members, error, setError, fail, reload: load } = useLocationSettings(locationId, (l) => setName(l.name));

  // A change shows at once; the controls wait for the answer, so the next change carries the new
  // row version. A refusal puts back what the server holds.
  const [saving, setSaving] = useState(false);
  const patch = (body: Partial<Location>) => {
    if (!loc) return;
    setError(null);
    setSaved(null);
    setSaving(true);
    setLoc({ ...loc, ...body });
    void patchLocation(locationId, { ...body, rowVersion: loc.rowVersion })
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
              <TransferForm
                loc={loc}
                others={others}
                onStart={() => setError(null)}
                onError={fail}
                onTransferred={(l, to) => {
                  setLoc(l);
                  setSaved(t("location.transferred", { name: to }));
                }}
              />
              <DeleteForm loc={loc} onStart={() => setError(null)} onError={fail} />
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
