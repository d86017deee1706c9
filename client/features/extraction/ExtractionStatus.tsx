/** What the reading of a thing's photos is doing, in words (a live status: it changes as the pipeline moves on). */
import type { ExtractionStatus as Status } from "../../../shared/extractions.js";
import { extractionStatusText } from "../../ui/ai-format.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import "../../ui/ai.css";

export function ExtractionStatus({
  extraction,
}: {
  extraction: { status: Status; statusReason?: string | null | undefined; pausedUntil?: string | null | undefined };
}) {
  const i18n = useI18n();
  const trouble = extraction.status === "failed" || extraction.status === "paused_budget" || extraction.status === "no_provider";
  return (
    <p role="status" className={`ai-status${trouble ? " trouble" : ""}`} data-status={extraction.status}>
      {extractionStatusText(extraction, i18n)}
    </p>
  );
}
