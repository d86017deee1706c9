/**
 * Buttons for the external providers the server offers (OIDC, social). They never create an
 * account: a person links their identity from settings first (server/auth/providers.ts).
 */
import { useState } from "react";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { errorText } from "../../ui/refusal.js";
import { startProviderSignIn, useSignInProviders, type SignInProvider } from "./hooks.js";

export function ProviderButtons() {
  const { t } = useI18n();
  const providers = useSignInProviders();
  const [error, setError] = useState<string | null>(null);
  if (!providers.length) return null;
  const start = (id: SignInProvider["id"]) =>
    void startProviderSignIn(id).then(
      ({ url }) => globalThis.location.assign(url),
      (err: unknown) => setError(t("auth.failed", { message: errorText(err) })),
    );
  return (
    <div className="stack">
      {providers.map((p) => (
        <button key={p.id} type="button" onClick={() => start(p.id)}>
          {t(p.id === "oidc" ? "auth.provider.oidc" : "auth.provider.social", { host: p.host })}
        </button>
      ))}
      <Notice kind="error">{error}</Notice>
    </div>
  );
}
