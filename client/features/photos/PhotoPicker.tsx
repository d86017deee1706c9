/**
 * A photo field: on a phone the file input opens the camera (`capture="environment"`), elsewhere a
 * file chooser; what was taken shows as a preview before it is saved (choosing again takes
 * another), with a way to go without. The parent holds the chosen file and clears it (null) once saved.
 */
import { useEffect, useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import "./photos.css";

export function PhotoPicker({ label, photo, onChange }: { label: string; photo: File | null; onChange: (photo: File | null) => void }) {
  const { t } = useI18n();
  const [preview, setPreview] = useState<string | null>(null);
  // A new input each time the photo is cleared, so choosing the same file again still counts.
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!photo) return setPreview(null);
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);
  const clear = () => {
    onChange(null);
    setRound((n) => n + 1);
  };
  return (
    <div className="photo-picker">
      <label>
        {label}
        <input key={round} type="file" accept="image/*" capture="environment" onChange={(e) => onChange(e.target.files?.[0] ?? null)} />
      </label>
      {preview ? (
        <figure>
          <img className="photo-preview" src={preview} alt={t("photos.preview")} />
          <button type="button" onClick={clear}>
            {t("photos.clear")}
          </button>
        </figure>
      ) : null}
    </div>
  );
}
