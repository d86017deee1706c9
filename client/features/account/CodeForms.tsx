/** The sign-in ways that answer with a message rather than a session: a link by email, and a managed account's one-time code. */
import { useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { redeemResetCode, requestMagicLink } from "./hooks.js";
import { useSubmit } from "./useSubmit.js";

export function MagicLinkForm() {
  const { t } = useI18n();
  const [email, setEmail] = useState("");
  const { done: sent, error, submit } = useSubmit(() => requestMagicLink(email));
  return (
    <form className="stack" onSubmit={submit}>
      <label>
        {t("auth.email")}
        <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <button type="submit" className="primary">
        {t("auth.sendLink")}
      </button>
      <Notice>{sent ? t("auth.linkSent") : null}</Notice>
      <Notice kind="error">{error}</Notice>
    </form>
  );
}

/** A managed account's first sign-in: the code an admin handed over sets the password. */
export function CodeForm() {
  const { t } = useI18n();
  const [username, setUsername] = useState("");
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const { done, error, submit } = useSubmit(() => redeemResetCode(username, code, password));
  return (
    <form className="stack" onSubmit={submit}>
      <p className="hint">{t("auth.codeHelp")}</p>
      <label>
        {t("auth.username")}
        <input autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
      </label>
      <label>
        {t("auth.code")}
        <input autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
      </label>
      <label>
        {t("auth.newPassword")}
        <input type="password" autoComplete="new-password" minLength={8} required value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      <button type="submit" className="primary">
        {t("auth.setPassword")}
      </button>
      <Notice>{done ? t("auth.passwordSet") : null}</Notice>
      <Notice kind="error">{error}</Notice>
    </form>
  );
}
