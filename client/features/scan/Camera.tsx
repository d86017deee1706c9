/**
 * The live camera: frames go to the decoder a few times a second until one holds a code. The
 * stream stops when the component goes (or a code is read): a camera left on drains a phone.
 */
import { useEffect, useRef, useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { decodeImage, type Decoded } from "./decode.js";

const EVERY_MS = 300;

export function Camera({ onDecoded }: { onDecoded: (d: Decoded) => void }) {
  const { t } = useI18n();
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const canvas = document.createElement("canvas");
    const tick = async () => {
      const v = video.current;
      if (stopped || !v) return;
      if (v.videoWidth) {
        canvas.width = v.videoWidth;
        canvas.height = v.videoHeight;
        const ctx = canvas.getContext("2d", { willReadFrequently: true });
        ctx?.drawImage(v, 0, 0);
        const found = ctx ? await decodeImage(ctx.getImageData(0, 0, canvas.width, canvas.height)).catch(() => null) : null;
        if (found && !stopped) return onDecoded(found);
      }
      if (!stopped) timer = setTimeout(() => void tick(), EVERY_MS);
    };
    if (!navigator.mediaDevices) setError(t("scan.noCamera"));
    else
      navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false }).then(
        (s) => {
          if (stopped) return s.getTracks().forEach((tr) => tr.stop());
          stream = s;
          if (video.current) {
            video.current.srcObject = s;
            void video.current.play().catch(() => undefined);
          }
          void tick();
        },
        () => setError(t("scan.noCamera")),
      );
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((tr) => tr.stop());
    };
  }, []);

  return (
    <div className="camera">
      <Notice kind="error">{error}</Notice>
      {error ? null : <video ref={video} muted playsInline aria-label={t("scan.cameraView")} style={{ inlineSize: "100%", maxInlineSize: "28rem" }} />}
    </div>
  );
}
