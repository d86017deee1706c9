/**
 * What the owner alone does with a shared location: transfer it to another member, or delete it.
 * Both want the location's name typed again (the server checks it too).
 */
import { useState } from "react";
import type { Location } from "../../../shared/locations.js";
import type { Member } from "../../../shared/members.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { navigate } from "../../ui/router.js";
import { paths } from "../../ui/routes.js";
import { deleteLocation, transferLocation } from "./hooks.js";

interface Props {
  loc: Location;
  /** Before each request: the last error goes. */
  onStart: () => void;
  onError: (err: unknown) => void;
}

export function TransferForm({ loc, others, onStart, onError, onTransferred }: Props & { others: Member[]; onTransferred: (l: Location, to: string) => void }) {
  const { t } = useI18n();
  const [newOwner, setNewOwner] = useState("");
  const [confirm, setConfirm] = useState("");
  return (
    <form
      className="stack"
      aria-labelledby="transfer-title"
      onSubmit={(e) => {
        e.preventDefault();
        onStart();
        const to = others.find((m) => m.userId === newOwner);
        void transferLocation(loc.id, { userId: newOwner, confirm }).then((l) => {
          setConfirm("");
          onTransferred(l, to?.displayName ?? "");
        }, onError);
      }}
    >
      <h2 id="transfer-title">{t("location.transfer")}</h2>
      <p className="hint">{t("location.transferHelp")}</p>
      <label>
        {t("location.transferTo")}
        <select required value={newOwner} onChange={(e) => setNewOwner(e.target.value)}>
          <option value="" />
          {others.map((m) => (
            <option key={m.userId} value={m.userId}>
              {m.displayName}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("location.confirmTransfer")}
        <input required autoComplete="off" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
      </label>
      <button type="submit" disabled={!newOwner || confirm.trim() !== loc.name.trim()}>
        {t("location.transferSubmit")}
      </button>
    </form>
  );
}

export function DeleteForm({ loc, onStart, onError }: Props) {
  const { t } = useI18n();
  const [confirm, setConfirm] = useState("");
  return (
    <form
      className="stack"
      aria-labelledby="delete-title"
      onSubmit={(e) => {
        e.preventDefault();
        onStart();
        void deleteLocation(loc.id, confirm).then(() => {
          localStorage.removeItem("lastLocation");
          navigate(paths.locations(), { replace: true });
        }, onError);
      }}
    >
      <h2 id="delete-title">{t("location.delete")}</h2>
      <p className="hint">{t("location.deleteHelp")}</p>
      <label>
        {t("location.confirmDelete")}
        <input required autoComplete="off" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
      </label>
      <button type="submit" className="danger" disabled={confirm.trim() !== loc.name.trim()}>
        {t("location.deleteSubmit")}
      </button>
    </form>
  );
}
