/** A first-use hint with a dismiss button; once dismissed (on any of the person's devices) it stays away (client/ui/hints.ts). */
import { useEffect, useState } from "react";
import { SYNCED_TABLES } from "../db/rows.js";
import { useSyncStatus } from "./data.js";
import { useI18n, type MessageKey } from "./i18n/i18n.js";
import { dismissHint, flushWhenOnline, locallyDismissed, syncDismissed } from "./hints.js";
import { useReady } from "./session.js";

export function Hint({ id }: { id: "things.empty" | "inbox" }) {
  const { t } = useI18n();
  const { user, db } = useReady();
  const status = useSyncStatus(db);
  // An empty screen during the first sync is empty only until its rows arrive: a hint shown then
  // would come and go and move the page under it (layout shift, issue #33).
  const synced = status !== undefined && SYNCED_TABLES.every((n) => status.shapes[n]?.upToDate);
  const [hidden, setHidden] = useState(() => locallyDismissed(user.id).has(id));
  useEffect(() => {
    flushWhenOnline(user.id);
    let live = true;
    void syncDismissed(user.id).then(() => live && locallyDismissed(user.id).has(id) && setHidden(true));
    return () => {
      live = false;
    };
  }, [user.id, id]);
  if (hidden || !synced) return null;
  return (
    <aside className="notice info hint-card" aria-label={t(`hint.${id}` as MessageKey)}>
      <p>{t(`hint.${id}` as MessageKey)}</p>
      <button
        type="button"
        className="icon-close"
        aria-label={t("hint.dismiss")}
        onClick={() => {
          dismissHint(user.id, id);
          setHidden(true);
        }}
      />
    </aside>
  );
}
