/**
 * /invite#token=: what the invited person opens. It shows which location, who invites and as what
 * role (POST /invites/preview, the token its only authority), keeps the token across sign-up or
 * sign-in, then accepts it as the signed-in person. Needs the network, and says so.
 */
import { useEffect, useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { OnlineOnly } from "../../ui/OnlineOnly.js";
import { Link, navigate } from "../../ui/router.js";
import { useSession } from "../../ui/session.js";
import { errorText } from "../../ui/refusal.js";
import { paths } from "../../ui/routes.js";
import { acceptInvite, useInvitePreview } from "./hooks.js";

const PENDING = "pendingInvite";

/** The link's token into sessionStorage (it outlives sign-up), and out of the address bar. */
function keepToken(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
  if (token) {
    sessionStorage.setItem(PENDING, token);
    history.replaceState(null, "", window.location.pathname);
  }
  return sessionStorage.getItem(PENDING);
}

function Details({ token }: { token: string }) {
  const { t, dateTime } = useI18n();
  // A dead invitation is forgotten, or every later sign-in would come back here.
  const { preview, error } = useInvitePreview(token, () => sessionStorage.removeItem(PENDING));
  if (preview === "dead") return <Notice kind="error">{t("invite.dead")}</Notice>;
  if (!preview) return <Notice kind="error">{error}</Notice>;
  return (
    <div className="stack" data-invite="">
      <p>
        {preview.invitedBy
          ? t("invite.details", { inviter: preview.invitedBy, location: preview.locationName })
          : t("invite.detailsNoInviter", { location: preview.locationName })}
      </p>
      <p>{t("invite.role", { role: t(`invite.role.${preview.role}`) })}</p>
      <p className="hint">{t("invite.expires", { date: dateTime(preview.expiresAt) })}</p>
      {preview.forOneAddress ? <p className="hint">{t("invite.oneAddress")}</p> : null}
      <Accept token={token} />
    </div>
  );
}

function Accept({ token }: { token: string }) {
  const { t } = useI18n();
  const { state } = useSession();
  const [error, setError] = useState<string | null>(null);
  if (state.kind !== "ready" || state.sessionLost)
    return (
      <p>
        <Link to={paths.signUp()}>{t("auth.signUp")}</Link> · <Link to={paths.signIn()}>{t("auth.signIn")}</Link>
      </p>
    );
  return (
    <>
      <button
        type="button"
        className="primary"
        onClick={() =>
          void acceptInvite(token).then(
            (r) => {
              sessionStorage.removeItem(PENDING);
              state.engine.restart();
              navigate(paths.things({ locationId: r.locationId }), { replace: true });
            },
            (err: unknown) => setError(errorText(err)),
          )
        }
      >
        {t("auth.acceptInvite")}
      </button>
      <Notice kind="error">{error}</Notice>
    </>
  );
}

export function InviteScreen() {
  const { t } = useI18n();
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(PENDING));
  useEffect(() => setToken(keepToken()), []);
  return (
    <main id="main" className="auth">
      <h1>{t("auth.invite")}</h1>
      {token ? (
        <OnlineOnly>
          <Details token={token} />
        </OnlineOnly>
      ) : (
        <Notice kind="error">{t("invite.noToken")}</Notice>
      )}
    </main>
  );
}
