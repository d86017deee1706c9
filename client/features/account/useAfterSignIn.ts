import type { SignedIn } from "./hooks.js";
import { destinationAfterSignIn } from "../../ui/after-sign-in.js";
import { navigate } from "../../ui/router.js";
import { paths } from "../../ui/routes.js";
import { useSession } from "../../ui/session.js";

/** Where a successful sign-in goes next: the second factor when the session waits for one, else on. */
export function useAfterSignIn(): (result: SignedIn) => Promise<void> {
  const { refresh } = useSession();
  return async (result) => {
    if (result.twoFactorRedirect) return navigate(paths.twoFactor(), { replace: true });
    await refresh();
    navigate(destinationAfterSignIn(), { replace: true });
  };
}
