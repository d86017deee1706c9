/** A first-use hint with a dismiss button; once dismissed (on any of the person's devices) it stays away (client/ui/hints.ts). */
import { useEffect, useState } from "react";
import { useI18n, type MessageKey } from "./i18n/i18n.js";
import { dismissHint, flushWhenOnline, locallyDismissed, syncDismissed } from "./hints.js";
import { useReady } from "./session.js";

export function Hint({ id }: { id: "things.empty" | "inbox" }) {
  const { t } = useI18n();
  const { user } = useReady();
  const [hidden, setHidden] = useState(() => locallyDismissed(user.id).has(id));
  useEffect(() => {
    flushWhenOnline(user.id);
    let live = true;
    void syncDismissed(user.id).then(() => live && locallyDismissed(user.id).has(id) && setHidden(true));
    return () => {
      live = false;
    };
  }, [user.id, id]);
  if (hidden) return null;
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
