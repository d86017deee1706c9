/**
 * Screens load on first use (React.lazy in App.tsx), each its own chunk, so the first screen downloads only what it
 * needs; the service worker precaches every chunk (vite.config.ts globPatterns), so after one
 * online visit every screen still opens offline. A chunk that cannot be fetched (a build replaced
 * on the server before this tab's service worker took control) is said plainly, with a reload.
 */
import { Component, Suspense, type ReactNode } from "react";
import { useI18n } from "./i18n/i18n.js";
import { useLocation } from "./router.js";

function Loading() {
  const { t } = useI18n();
  return (
    <p role="status" aria-label={t("common.loading")} className="screen-loading">
      {t("common.loading")}
    </p>
  );
}

function LoadFailed() {
  const { t } = useI18n();
  return (
    <main id="main" className="auth">
      <p role="alert">{t("app.screenFailed")}</p>
      <button type="button" className="primary" onClick={() => window.location.reload()}>
        {t("app.reload")}
      </button>
    </main>
  );
}

class LoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <LoadFailed /> : this.props.children;
  }
}

/** Where lazy screens are drawn: a named "Loading" while a chunk arrives; another page tries afresh. */
export function Screens({ children }: { children: ReactNode }) {
  const { path } = useLocation();
  return (
    <LoadBoundary key={path}>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </LoadBoundary>
  );
}
