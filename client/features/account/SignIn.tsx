/**
 * Sign in. Each way of signing in the server offers is one entry of SIGN_IN_METHODS with its own
 * form; passkeys and OIDC slot in as more entries when their server routes land. A session that
 * needs a second factor goes on to /two-factor.
 */
import { useState, type ReactNode } from "react";
import type { MessageKey } from "../../ui/i18n/i18n.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Link } from "../../ui/router.js";
import { paths } from "../../ui/routes.js";
import { CodeForm, MagicLinkForm } from "./CodeForms.js";
import { passkeysSupported } from "./hooks.js";
import { PasskeyButton } from "./PasskeyButton.js";
import { PasswordForm } from "./PasswordForm.js";
import { ProviderButtons } from "./ProviderButtons.js";

export interface SignInMethod {
  id: string;
  label: MessageKey;
  /** Whether this browser (and server) can offer it. */
  available: () => boolean;
  form: () => ReactNode;
}

/** The ways of signing in this server offers, in the order they are shown; OIDC slots in here. */
export const SIGN_IN_METHODS: SignInMethod[] = [
  { id: "password", label: "auth.method.password", available: () => true, form: () => <PasswordForm /> },
  { id: "passkey", label: "auth.method.passkey", available: passkeysSupported, form: () => <PasskeyButton label="auth.usePasskey" /> },
  { id: "magic-link", label: "auth.method.magicLink", available: () => true, form: () => <MagicLinkForm /> },
  { id: "code", label: "auth.method.code", available: () => true, form: () => <CodeForm /> },
];

export function SignInScreen() {
  const { t } = useI18n();
  const methods = SIGN_IN_METHODS.filter((m) => m.available());
  const [method, setMethod] = useState(methods[0]!.id);
  const current = methods.find((m) => m.id === method) ?? methods[0]!;
  return (
    <main id="main" className="auth">
      <h1>{t("auth.signIn")}</h1>
      <fieldset className="methods">
        <legend>{t("auth.methods")}</legend>
        {methods.map((m) => (
          <label key={m.id} className="method">
            <input type="radio" name="method" value={m.id} checked={m.id === method} onChange={() => setMethod(m.id)} />
            {t(m.label)}
          </label>
        ))}
      </fieldset>
      {current.form()}
      <ProviderButtons />
      <p>
        {t("auth.noAccount")} <Link to={paths.signUp()}>{t("auth.signUp")}</Link>
      </p>
    </main>
  );
}
