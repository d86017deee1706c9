/**
 * A meter's readings as a line over time, drawn as a small SVG (no chart library). Values are
 * decimal strings; the line follows each reading's total (value + offset, so a replaced counter's
 * line goes on), which becomes a number here only to place points; every label is the decimal
 * total in the person's digits. Time runs left to right in both languages, as on a paper chart.
 */
import { parseTime } from "../../../shared/meter-rules.js";
import type { ReadingRow } from "../../db/rows.js";
import type { View } from "../../sync/optimistic.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { totalOf } from "./MeterData.js";
import { decimalText } from "./MeterFormat.js";

const W = 320;
const H = 160;
const PAD = { left: 8, right: 8, top: 8, bottom: 8 };

export function ReadingChart({ readings, unit }: { readings: View<ReadingRow>[]; unit: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const points = readings
    .filter((r) => r.status !== "rejected")
    .map((r) => ({ r, x: parseTime(r.takenAt), total: totalOf(r) }))
    .map((p) => ({ ...p, y: Number(p.total) }))
    .filter((p) => !Number.isNaN(p.x))
    .sort((a, b) => a.x - b.x);
  if (points.length < 2) return <p className="hint">{t("meters.chartNeedsTwo")}</p>;
  const first = points[0]!;
  const last = points.at(-1)!;
  const ys = points.map((p) => p.y);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  const spanX = last.x - first.x || 1;
  const spanY = maxY - minY || 1;
  const px = (x: number) => PAD.left + ((x - first.x) / spanX) * (W - PAD.left - PAD.right);
  const py = (y: number) => H - PAD.bottom - ((y - minY) / spanY) * (H - PAD.top - PAD.bottom);
  const low = points.reduce((a, b) => (b.y < a.y ? b : a));
  const high = points.reduce((a, b) => (b.y > a.y ? b : a));
  const label = t("meters.chartLabel", {
    count: points.length,
    from: i18n.dateTime(first.r.takenAt),
    to: i18n.dateTime(last.r.takenAt),
    low: `${decimalText(low.total, i18n)} ${unit}`,
    high: `${decimalText(high.total, i18n)} ${unit}`,
  });
  return (
    <figure className="meter-chart" style={{ margin: 0 }}>
      {/* The scale's words are HTML around the drawing, not SVG text: axe cannot judge the contrast of text inside an
          image, and the chart's name (aria-label, figcaption) already says them, so they are hidden from readers. */}
      <div className="meter-chart-scale" dir="ltr" aria-hidden="true">
        <span>{`${decimalText(high.total, i18n)} ${unit}`}</span>
      </div>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={label}
        direction="ltr"
        style={{ width: "100%", height: "auto", maxWidth: "40rem", display: "block" }}
      >
        <line x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} stroke="currentColor" strokeOpacity={0.3} />
        <polyline fill="none" stroke="currentColor" strokeWidth={2} points={points.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(" ")} />
        {points.map((p) => (
          <circle
            key={p.r.id}
            cx={px(p.x)}
            cy={py(p.y)}
            r={3.5}
            fill={p.r.pending ? "white" : p.r.status === "review" ? "#b45309" : "currentColor"}
            stroke={p.r.status === "review" ? "#b45309" : "currentColor"}
            strokeWidth={1.5}
          />
        ))}
      </svg>
      <div className="meter-chart-scale" dir="ltr" aria-hidden="true">
        <span>{i18n.dateTime(first.r.takenAt)}</span>
        <span>{i18n.dateTime(last.r.takenAt)}</span>
      </div>
      <figcaption className="meta">{label}</figcaption>
    </figure>
  );
}
