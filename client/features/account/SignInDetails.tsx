/**
 * The sign-in email (a confirmation link goes to the new address; the password re-authenticates
 * the change) and the password. A managed account has no email: that form is left out.
 */
import { useState } from "react";
import { changeEmail, changePassword } from "./hooks.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { errorText } from "../../ui/refusal.js";
import { Notice } from "../../ui/Notice.js";
import { PasskeyReauth } from "./PasskeyReauth.js";

function useAction() {
  const { t } = useI18n();
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = (action: Promise<unknown>, done: string) => {
    setNote(null);
    setError(null);
    action.then(
      () => setNote(done),
      (err: unknown) => setError(t("security.failed", { message: errorText(err) })),
    );
  };
  return { note, error, run };
}

export function SignInDetails({ email }: { email: string | null }) {
  const { t } = useI18n();
  const [newEmail, setNewEmail] = useState("");
  const [emailPassword, setEmailPassword] = useState("");
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [others, setOthers] = useState(true);
  const mail = useAction();
  const pw = useAction();
  return (
    <>
      {email !== null ? (
        <section className="stack" aria-labelledby="sec-email-h">
          <h2 id="sec-email-h">{t("security.email.title")}</h2>
          <p>
            <bdi dir="ltr">{email}</bdi>
          </p>
          <form
            className="stack"
            onSubmit={(e) => {
              e.preventDefault();
              mail.run(
                changeEmail(newEmail, emailPassword).then(() => setEmailPassword("")),
                t("security.email.sent", { email: newEmail.trim() }),
              );
            }}
          >
            <label>
              {t("security.email.new")}
              <input type="email" dir="ltr" autoComplete="email" required maxLength={320} value={newEmail} onChange={(e) => setNewEmail(e.target.value)} />
            </label>
            <label>
              {t("security.password")}
              <input type="password" autoComplete="current-password" required value={emailPassword} onChange={(e) => setEmailPassword(e.target.value)} />
            </label>
            <button type="submit">{t("security.email.change")}</button>
            {/* No password (a passkey-only account), or rather not type it: a passkey re-authenticates. */}
            <PasskeyReauth
              then={async () => {
                if (!newEmail.trim()) return;
                mail.run(changeEmail(newEmail), t("security.email.sent", { email: newEmail.trim() }));
              }}
            />
            <Notice>{mail.note}</Notice>
            <Notice kind="error">{mail.error}</Notice>
          </form>
        </section>
      ) : null}
      <section className="stack" aria-labelledby="sec-pw-h">
        <h2 id="sec-pw-h">{t("security.pw.title")}</h2>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            pw.run(
              changePassword(current, next, others).then(() => {
                setCurrent("");
                setNext("");
              }),
              t("security.pw.changed"),
            );
          }}
        >
          <label>
            {t("security.password")}
            <input type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
          </label>
          <label>
            {t("security.pw.new")}
            <input type="password" autoComplete="new-password" required minLength={8} maxLength={256} value={next} onChange={(e) => setNext(e.target.value)} />
          </label>
          <label className="check">
            <input type="checkbox" checked={others} onChange={(e) => setOthers(e.target.checked)} />
            {t("security.pw.others")}
          </label>
          <button type="submit">{t("security.pw.change")}</button>
          <Notice>{pw.note}</Notice>
          <Notice kind="error">{pw.error}</Notice>
        </form>
      </section>
    </>
  );
}
