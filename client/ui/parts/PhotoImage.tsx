/**
 * One photo by its file id, from wherever it is nearest (../photos.ts): a thumbnail in lists and
 * the inbox, full size where a person opened it. While it loads, or with no network and no kept
 * copy, a quiet placeholder of the same size takes its place, never a broken image.
 */
import type { PhotoSize } from "../../db/photo-cache.js";
import { useI18n } from "../i18n/i18n.js";
import { usePhoto } from "../photos.js";
import "./photos.css";

export function PhotoImage({
  fileId,
  size,
  alt,
  className = "thumb",
}: {
  fileId: string | null | undefined;
  size: PhotoSize;
  alt: string;
  className?: string;
}) {
  const { t } = useI18n();
  const photo = usePhoto(fileId, size);
  if (photo.state === "shown") return <img className={className} src={photo.src} alt={alt} data-file-id={fileId ?? undefined} />;
  if (photo.state === "missing" && size === "thumb") return null;
  return (
    <span className={`${className} photo-placeholder`} aria-hidden={size === "thumb" || undefined}>
      {size === "full" && photo.state === "unavailable" ? t("photos.unavailable") : null}
    </span>
  );
}
