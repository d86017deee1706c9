/**
 * Security, reached from Settings: two-step verification (with backup codes and the recovery kit),
 * passkeys, the sign-in email and the password, and the account's security activity. Account settings live on the server, not in the
 * synced data: the screen needs the network and says so when there is none.
 */
import type { ReactNode } from "react";
import { AuditActivity } from "./AuditActivity.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { OnlineOnly } from "../../ui/OnlineOnly.js";
import { useMe } from "./hooks.js";
import { PasskeySettings } from "./PasskeySettings.js";
import { Shell } from "../../ui/Shell.js";
import { SignInDetails } from "./SignInDetails.js";
import { TwoFactorSettings } from "./TwoFactorSettings.js";
import { Link } from "../../ui/router.js";
import { paths } from "../../ui/routes.js";

/** The links from Settings to the account screens. */
export function AccountLinks() {
  const { t } = useI18n();
  return (
    <nav aria-label={t("security.title")}>
      <ul className="list">
        <li>
          <Link to={paths.security()}>{t("security.link")}</Link>
        </li>
        <li>
          <Link to={paths.devices()}>{t("devices.link")}</Link>
        </li>
        <li>
          <Link to={paths.tokens()}>{t("tokens.link")}</Link>
        </li>
      </ul>
    </nav>
  );
}

export function AccountScreen({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useI18n();
  return (
    <Shell>
      <p>
        <Link to={paths.settings()}>{t("settings.title")}</Link>
      </p>
      <h1>{title}</h1>
      <OnlineOnly>{children}</OnlineOnly>
    </Shell>
  );
}

export function SecurityScreen() {
  const { t } = useI18n();
  return (
    <AccountScreen title={t("security.title")}>
      <Security />
    </AccountScreen>
  );
}

function Security() {
  const { t } = useI18n();
  const { me, error, reload } = useMe();
  return (
    <>
      <Notice kind="error">{error}</Notice>
      {me ? (
        <>
          <TwoFactorSettings enabled={me.twoFactorEnabled} onChanged={reload} />
          <PasskeySettings />
          <SignInDetails email={me.email} />
        </>
      ) : null}
      <AuditActivity path="/api/v1/me/audit" intro={t("audit.intro.account")} />
    </>
  );
}
