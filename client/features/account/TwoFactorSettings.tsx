/**
 * Two-step verification on the Security screen: turn it on (password, then a QR code of the
 * authenticator URI drawn here from the URI itself, no network, and a first code to confirm), see
 * the backup codes once, make new ones, turn it off, and download the recovery kit.
 */
import { useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { disableTotp, regenerateBackupCodes, startTotp, type TotpEnrolment } from "./hooks.js";
import { PasswordPrompt } from "./PasswordPrompt.js";
import { RecoveryKit } from "./RecoveryKit.js";
import { BackupCodes, Enrolment } from "./TotpEnrolment.js";

type Mode = "idle" | "enable" | "disable" | "regenerate";

export function TwoFactorSettings({ enabled, onChanged }: { enabled: boolean; onChanged: () => Promise<void> }) {
  const { t } = useI18n();
  const [mode, setMode] = useState<Mode>("idle");
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const idle = () => setMode("idle");

  return (
    <section className="stack" aria-labelledby="sec-totp-h">
      <h2 id="sec-totp-h">{t("security.totp.title")}</h2>
      <p>{enabled ? t("security.totp.on") : t("security.totp.off")}</p>
      <Notice>{note}</Notice>
      {codes ? <BackupCodes codes={codes} onDone={() => setCodes(null)} /> : null}
      {enrolment ? (
        <Enrolment
          enrolment={enrolment}
          onCancel={() => setEnrolment(null)}
          onConfirmed={async () => {
            setCodes(enrolment.backupCodes);
            setEnrolment(null);
            setNote(t("security.totp.enabled"));
            await onChanged();
          }}
        />
      ) : null}
      {mode === "enable" ? (
        <PasswordPrompt
          submitLabel={t("security.continue")}
          onCancel={idle}
          onSubmit={async (password) => {
            setEnrolment(await startTotp(password));
            setNote(null);
            idle();
          }}
        />
      ) : null}
      {mode === "disable" ? (
        <PasswordPrompt
          submitLabel={t("security.totp.disable")}
          onCancel={idle}
          onSubmit={async (password) => {
            await disableTotp(password);
            setCodes(null);
            setNote(t("security.totp.disabled"));
            idle();
            await onChanged();
          }}
        />
      ) : null}
      {mode === "regenerate" ? (
        <PasswordPrompt
          submitLabel={t("security.backup.regenerate")}
          onCancel={idle}
          onSubmit={async (password) => {
            setCodes((await regenerateBackupCodes(password)).backupCodes);
            setNote(t("security.backup.regenerated"));
            idle();
          }}
        />
      ) : null}
      {mode === "idle" && !enrolment ? (
        <div className="checks">
          {enabled ? (
            <>
              <button type="button" onClick={() => setMode("regenerate")}>
                {t("security.backup.regenerate")}
              </button>
              <button type="button" className="danger" onClick={() => setMode("disable")}>
                {t("security.totp.disable")}
              </button>
            </>
          ) : (
            <button type="button" className="primary" onClick={() => setMode("enable")}>
              {t("security.totp.start")}
            </button>
          )}
        </div>
      ) : null}
      {enabled ? <RecoveryKit /> : null}
    </section>
  );
}
