/** A secret shown once (a link, a one-time code): read-only, selectable, with a Copy button. */
import { useState } from "react";
import { useI18n } from "./i18n/i18n.js";

export function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <div className="stack">
      <label>
        {label}
        <input readOnly value={value} onFocus={(e) => e.target.select()} />
      </label>
      {/* Named "Copy" only: a name holding the label would make the field's label match two controls. */}
      <button
        type="button"
        onClick={() =>
          void navigator.clipboard?.writeText(value).then(
            () => setCopied(true),
            () => undefined,
          )
        }
      >
        {copied ? t("common.copied") : t("common.copy")}
      </button>
    </div>
  );
}
