/**
 * The mover's scan box: pick what a scan does (load, unload, unpack), then type a box's code or
 * point the camera at its label. The code is read on the device (things' codes and the `codes`
 * table), so it works in a truck with no signal; the op goes to the outbox and the box changes at once.
 */
import { useState } from "react";
import { boxTransition, SCAN_STATES } from "../../../shared/moves.js";
import type { MoveBoxRow, MoveRow } from "../../db/rows.js";
import { type ScanMode } from "../../ops/moves/boxes.js";
import { queueScan } from "../../ops/moves/queue.js";
import { boxByCode } from "../../sync/move-ops.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Camera } from "../scan/Camera.js";
import { useReady } from "../../ui/session.js";
import { Notice } from "../../ui/Notice.js";

const MODES: ScanMode[] = ["load", "unload", "unpack"];

export function MoveScan({ move, boxes }: { move: Pick<MoveRow, "id" | "locationId">; boxes: MoveBoxRow[] }) {
  const { t, num } = useI18n();
  const { db } = useReady();
  const [mode, setMode] = useState<ScanMode>("load");
  const [code, setCode] = useState("");
  const [camera, setCamera] = useState(false);
  const [note, setNote] = useState<{ kind: "info" | "error"; text: string } | null>(null);

  const scan = async (text: string) => {
    const box = await boxByCode(db, boxes, text);
    if (!box) return setNote({ kind: "error", text: t("moves.scanUnknown", { code: text.trim() }) });
    const to = SCAN_STATES[`box.${mode}`];
    const step = boxTransition(box.state, to);
    const number = num(box.number);
    if (step === "refused") return setNote({ kind: "error", text: t("moves.scanRefused", { number }) });
    // The same scan twice is no error: the op is queued all the same (the server's row may be newer than this device's).
    await queueScan(db, move, box.containerId, mode);
    setCode("");
    setNote({ kind: "info", text: step === "same" ? t("moves.scanSame", { number, state: t(`moves.state.${to}`) }) : t(`moves.scanned.${mode}`, { number }) });
  };

  return (
    <section aria-labelledby="move-scan-h" className="stack">
      <h2 id="move-scan-h">{t("moves.scan")}</h2>
      <fieldset className="segmented">
        <legend>{t("moves.mode")}</legend>
        {MODES.map((m) => (
          <label key={m}>
            <input type="radio" name="scan-mode" value={m} checked={mode === m} onChange={() => setMode(m)} /> {t(`moves.mode.${m}`)}
          </label>
        ))}
      </fieldset>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          if (code.trim()) void scan(code);
        }}
      >
        <label>
          {t("moves.code")}
          <input value={code} onChange={(e) => setCode(e.target.value)} autoComplete="off" autoCapitalize="characters" inputMode="text" />
        </label>
        <button type="submit" className="primary">
          {t("moves.scanGo")}
        </button>
        <button type="button" aria-pressed={camera} onClick={() => setCamera(!camera)}>
          {t("moves.camera")}
        </button>
      </form>
      {camera ? (
        <Camera
          onDecoded={(d) => {
            setCamera(false);
            void scan(d.text);
          }}
        />
      ) : null}
      {note ? <Notice kind={note.kind}>{note.text}</Notice> : null}
    </section>
  );
}
