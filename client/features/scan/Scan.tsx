/**
 * Scanning: the camera, a photo, or a typed code, read offline against the device's store (and
 * asked of the server when the device knows nothing of a code and the network is there). A label's
 * QR code opens `/c/{code}`, the CodeScreen below, which does the same for one code.
 */
import { useEffect, useState } from "react";
import { formatCode, normalizeCode, type ScanResult } from "../../../shared/codes.js";
import { resolveScan } from "../../sync/field-ops.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { openResult, ScanOutcome } from "./ScanOutcome.js";
import { Shell } from "../../ui/Shell.js";
import { Link } from "../../ui/router.js";
import { useReady } from "../../ui/session.js";
import { Camera } from "./Camera.js";
import { decodeImage } from "./decode.js";
import { errorText } from "../../ui/refusal.js";
import { useLocationScreen } from "../../ui/use-location.js";
import { paths } from "../../ui/routes.js";

/** The location the Shell keeps for screens outside one (the last opened). */
const lastLocation = () => localStorage.getItem("lastLocation") ?? "";

function LabelsLink() {
  const { t } = useI18n();
  const locationId = lastLocation();
  const data = useLocationScreen(locationId);
  if (!locationId || !data?.canManage) return null;
  return (
    <p>
      <Link to={paths.labels({ locationId })}>{t("labels.title")}</Link>
    </p>
  );
}

export function ScanScreen() {
  const { t } = useI18n();
  const { db } = useReady();
  const [camera, setCamera] = useState(false);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [found, setFound] = useState<{ scanned: string; result: ScanResult } | null>(null);

  const handle = async (text: string, format?: string) => {
    setError(null);
    setFound(null);
    const result = await resolveScan(db, text, format);
    if (!openResult(result)) setFound({ scanned: text, result });
  };
  const run = (work: () => Promise<void>) => {
    setBusy(true);
    work()
      .catch((err: unknown) => setError(errorText(err)))
      .finally(() => setBusy(false));
  };

  return (
    <Shell>
      <h1>{t("scan.title")}</h1>
      <p className="hint">{t("scan.hint")}</p>
      <div className="actions">
        <button type="button" className="primary" aria-pressed={camera} onClick={() => setCamera(!camera)}>
          {camera ? t("scan.stopCamera") : t("scan.camera")}
        </button>
      </div>
      {camera ? (
        <Camera
          onDecoded={(d) => {
            setCamera(false);
            run(() => handle(d.text, d.format));
          }}
        />
      ) : null}
      <label className="file-button">
        {t("scan.fromPhoto")}
        <input
          type="file"
          accept="image/*"
          disabled={busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (!file) return;
            run(async () => {
              const d = await decodeImage(file);
              if (d) await handle(d.text, d.format);
              else setError(t("scan.nothingInPhoto"));
            });
          }}
        />
      </label>
      <form
        className="stack inline"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim()) run(() => handle(typed.trim()));
        }}
      >
        <label>
          {t("scan.typed")}
          <input value={typed} onChange={(e) => setTyped(e.target.value)} autoCapitalize="characters" autoComplete="off" maxLength={4096} />
        </label>
        <button type="submit" disabled={busy}>
          {t("scan.lookUp")}
        </button>
      </form>
      {busy ? <p role="status">{t("scan.reading")}</p> : null}
      <Notice kind="error">{error}</Notice>
      {found ? <ScanOutcome result={found.result} scanned={found.scanned} /> : null}
      <LabelsLink />
    </Shell>
  );
}

/** `/c/{code}`: where a label's QR code lands; opens what the code names, or offers to claim the label. */
export function CodeScreen({ code }: { code: string }) {
  const { t } = useI18n();
  const { db } = useReady();
  const [found, setFound] = useState<ScanResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    resolveScan(db, paths.code({ code })).then(
      (result) => live && !openResult(result, true) && setFound(result),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [db, code]);
  return (
    <Shell>
      <h1>{t("scan.codeTitle", { code: formatCode(normalizeCode(code) ?? code) })}</h1>
      <Notice kind="error">{error}</Notice>
      {found ? <ScanOutcome result={found} scanned={code} /> : error ? null : <p role="status">{t("scan.reading")}</p>}
      <p>
        <Link to={paths.scan()}>{t("scan.title")}</Link>
      </p>
    </Shell>
  );
}
