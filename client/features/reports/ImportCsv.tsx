/**
 * Importing things from a spreadsheet's CSV, with a preview first: a dry run that writes nothing
 * and lists each row's problem; the real run is offered only when there is none.
 */
import { useState } from "react";
import type { CsvImportResult } from "../../../shared/exports.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { errorText } from "../../ui/refusal.js";
import { useReady } from "../../ui/session.js";
import { importCsv } from "./hooks.js";

export function ImportCsv({ locationId, online }: { locationId: string; online: boolean }) {
  const { t, num } = useI18n();
  const { engine } = useReady();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<CsvImportResult | null>(null);
  const [done, setDone] = useState<CsvImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    importCsv(locationId, file, dryRun)
      .then(
        (r) => {
          // A real run with problems wrote nothing (the location changed since the check): its problems are shown as a check's are.
          if (dryRun || r.errors.length) setPreview(r);
          else {
            setDone(r);
            setPreview(null);
            // As after a restore: the places shape is paused between catch-ups and an import is no push.
            engine.kick();
          }
        },
        (err: unknown) => setError(errorText(err)),
      )
      .finally(() => setBusy(false));
  };
  return (
    <form
      className="stack"
      aria-labelledby="csv-h"
      onSubmit={(e) => {
        e.preventDefault();
        run(true);
      }}
    >
      <h3 id="csv-h">{t("import.csv.title")}</h3>
      <p className="hint">{t("import.csv.hint")}</p>
      <label>
        {t("import.csv.file")}
        <input
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setPreview(null);
            setDone(null);
          }}
        />
      </label>
      <button type="submit" disabled={!online || !file || busy}>
        {t("import.csv.preview")}
      </button>
      <Notice kind="error">{error}</Notice>
      {preview ? (
        <section aria-labelledby="csv-preview-h">
          <h4 id="csv-preview-h">{t("import.csv.previewTitle")}</h4>
          <p role="status">{t("import.csv.summary", { rows: preview.rows, ok: preview.ok, places: preview.placesCreated })}</p>
          {preview.errors.length ? (
            <ul className="list">
              {preview.errors.slice(0, 50).map((e) => (
                <li key={`${e.line}-${e.reason}`}>{t("import.csv.rowError", { line: num(e.line), reason: e.reason })}</li>
              ))}
            </ul>
          ) : null}
          {preview.errors.length > 50 ? <p className="hint">{t("import.csv.moreErrors", { n: preview.errors.length - 50 })}</p> : null}
          <button type="button" className="primary" disabled={!online || busy || preview.errors.length > 0 || preview.ok === 0} onClick={() => run(false)}>
            {t("import.csv.go", { n: preview.ok })}
          </button>
          {preview.errors.length ? <p className="hint">{t("import.csv.fixFirst")}</p> : null}
        </section>
      ) : null}
      {done ? (
        <p role="status" className="notice success">
          {t("import.csv.done", { n: done.created, places: done.placesCreated })}
        </p>
      ) : null}
    </form>
  );
}
