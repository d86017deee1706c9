/**
 * Sign in. Each way of signing in the server offers is one entry of SIGN_IN_METHODS with its own
 * form; passkeys and OIDC slot in as more entries when their server routes land. A session that
 * needs a second factor goes on to /two-factor.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { passkeysSupported, signInWithPasskey } from "../../auth/passkey.js";
import {
  fetchProviders,
  redeemResetCode,
  requestMagicLink,
  requestPasswordReset,
  signInWithPassword,
  startProviderSignIn,
  type SignedIn,
  type SignInProvider,
} from "../../auth/auth-api.js";
import { ApiError } from "../../sync/api.js";
import type { MessageKey } from "../../ui/i18n/i18n.js";
import { useI18n } from "../../ui/i18n/i18n.js";
import { Notice } from "../../ui/Notice.js";
import { useSubmit } from "./useSubmit.js";
import { destinationAfterSignIn } from "../../ui/after-sign-in.js";
import { Link, navigate } from "../../ui/router.js";
import { useSession } from "../../ui/session.js";
import { paths } from "../../ui/routes.js";

export const errorText = (err: unknown) => (err instanceof ApiError || err instanceof Error ? err.message : String(err));

/** Where a successful sign-in goes next. */
export function useAfterSignIn(): (result: SignedIn) => Promise<void> {
  const { refresh } = useSession();
  return async (result) => {
    if (result.twoFactorRedirect) return navigate(paths.twoFactor(), { replace: true });
    await refresh();
    navigate(destinationAfterSignIn(), { replace: true });
  };
}

function PasswordForm() {
  const { t } = useI18n();
  const after = useAfterSignIn();
  const [login, setLogin] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);
  const [resetSent, setResetSent] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await after(await signInWithPassword(login, password));
    } catch (err) {
      setError(t("auth.failed", { message: errorText(err) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <form onSubmit={(e) => void submit(e)} className="stack">
        <label>
          {t("auth.emailOrUsername")}
          <input name="login" autoComplete="username" required value={login} onChange={(e) => setLogin(e.target.value)} />
        </label>
        <label>
          {t("auth.password")}
          <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {t("auth.signIn")}
        </button>
        <Notice kind="error">{error}</Notice>
      </form>
      <button type="button" className="link" aria-expanded={resetOpen} onClick={() => setResetOpen(!resetOpen)}>
        {t("auth.forgot")}
      </button>
      {resetOpen ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void requestPasswordReset(login).then(
              () => setResetSent(true),
              (err: unknown) => setError(errorText(err)),
            );
          }}
        >
          <label>
            {t("auth.email")}
            <input type="email" autoComplete="email" required value={login} onChange={(e) => setLogin(e.target.value)} />
          </label>
          <button type="submit">{t("auth.sendReset")}</button>
          <Notice>{resetSent ? t("auth.resetSent") : null}</Notice>
        </form>
      ) : null}
    </>
  );
}

function MagicLinkForm() {
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
function CodeForm() {
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

/** A passkey on this device (or a phone nearby) signs in without a password. */
export function PasskeyButton({ label }: { label: MessageKey }) {
  const { t } = useI18n();
  const after = useAfterSignIn();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="stack">
      <button
        type="button"
        className="primary"
        onClick={() => void signInWithPasskey().then(after, (err: unknown) => setError(t("auth.failed", { message: errorText(err) })))}
      >
        {t(label)}
      </button>
      <Notice kind="error">{error}</Notice>
    </div>
  );
}

/**
 * Buttons for the external providers the server offers (OIDC, social). They never create an
 * account: a person links their identity from settings first (server/auth/providers.ts).
 */
function ProviderButtons() {
  const { t } = useI18n();
  const [providers, setProviders] = useState<SignInProvider[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetchProviders().then(
      (r) => live && setProviders(r.items),
      () => undefined, // offline or older server: only the built-in ways are shown
    );
    return () => {
      live = false;
    };
  }, []);
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
