/** Turning two-factor on: the authenticator's QR code drawn on this device, its first code, and the backup codes then. */
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { errorText } from "../../ui/refusal.js";
import { verifyTotp, type TotpEnrolment } from "./hooks.js";
import { CopyOnce } from "./PasswordPrompt.js";

/** The QR code and setup key of a new authenticator, and the first code that turns two-factor on. */
export function Enrolment(props: { enrolment: TotpEnrolment; onCancel: () => void; onConfirmed: () => Promise<void> }) {
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

/** New backup codes, shown once. */
export function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
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
