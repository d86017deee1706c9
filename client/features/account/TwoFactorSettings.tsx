/**
 * Two-step verification on the Security screen: turn it on (password, then a QR code of the
 * authenticator URI drawn here from the URI itself, no network, and a first code to confirm), see
 * the backup codes once, make new ones, turn it off, and download the recovery kit.
 */
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { verifyTotp } from "../../auth/auth-api.js";
import { disableTotp, regenerateBackupCodes, startTotp, type TotpEnrolment } from "../../auth/security-api.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { errorText } from "./SignIn.js";
import { Notice } from "../../ui/Notice.js";
import { CopyOnce, PasswordPrompt } from "./PasswordPrompt.js";
import { RecoveryKit } from "./RecoveryKit.js";

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

/** The QR code and setup key of a new authenticator, and the first code that turns two-factor on. */
function Enrolment(props: { enrolment: TotpEnrolment; onCancel: () => void; onConfirmed: () => Promise<void> }) {
  const { t } = useI18n();
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const uri = props.enrolment.totpURI;
  const secret = new URL(uri).searchParams.get("secret") ?? "";
  useEffect(() => {
    let live = true;
    // Drawn on this device: the URI holds the secret and must never go to a QR service.
    void QRCode.toDataURL(uri, { margin: 1, width: 240, errorCorrectionLevel: "M" }).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [uri]);
  return (
    <form
      className="stack inline"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        verifyTotp(code)
          .then(props.onConfirmed)
          .catch((err: unknown) => setError(t("security.failed", { message: errorText(err) })));
      }}
    >
      <p className="hint">{t("security.totp.scan")}</p>
      {qr ? <img className="qr" src={qr} width={240} height={240} alt={t("security.totp.qr")} /> : null}
      <label>
        {t("security.totp.key")}
        <input readOnly dir="ltr" value={secret} onFocus={(e) => e.target.select()} />
      </label>
      <label>
        {t("security.totp.confirm")}
        <input autoComplete="one-time-code" inputMode="numeric" dir="ltr" required value={code} onChange={(e) => setCode(e.target.value)} />
      </label>
      <div className="checks">
        <button type="submit" className="primary">
          {t("security.totp.verify")}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t("security.cancel")}
        </button>
      </div>
      <Notice kind="error">{error}</Notice>
    </form>
  );
}

function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useI18n();
  return (
    <div className="stack inline">
      <h3>{t("security.backup.title")}</h3>
      <p className="hint">{t("security.backup.once")}</p>
      <CopyOnce label={t("security.backup.list")} value={codes.join("\n")} multiline />
      <button type="button" onClick={onDone}>
        {t("security.done")}
      </button>
    </div>
  );
}
