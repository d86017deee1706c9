/** A move's progress from its boxes: "2 of 3 in transit, 1 unpacked, 0 packed", and a bar of unpacked boxes. */
import type { MoveBoxRow } from "../../db/rows.js";
import { useI18n } from "../../ui/i18n/i18n.js";

export function MoveProgress({ boxes }: { boxes: Pick<MoveBoxRow, "state">[] }) {
  const { t, num } = useI18n();
  if (!boxes.length) return null;
  const count = (s: string) => boxes.filter((b) => b.state === s).length;
  const text = t("moves.progress", {
    inTransit: num(count("in_transit")),
    unpacked: num(count("unpacked")),
    packed: num(count("packed")),
    total: num(boxes.length),
  });
  return (
    <p className="move-progress" role="status">
      <progress max={boxes.length} value={count("unpacked") + count("in_transit") / 2} aria-hidden="true" /> <span>{text}</span>
    </p>
  );
}
