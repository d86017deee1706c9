/**
 * Where a person was going when the app sent them to sign in: a label's QR code opens
 * `/c/{code}`, and after signing in they should land on that box, not on the home screen. Kept in
 * sessionStorage (this tab only), and only a path of this app: never another origin.
 */
import { paths } from "./routes.js";

const KEY = "afterSignIn";

export function rememberDestination(path: string, search: string): void {
  if (path === "/" || !path.startsWith("/") || path.startsWith("//")) return;
  sessionStorage.setItem(KEY, path + search);
}

/** The remembered path (once), else `fallback`. An invitation being accepted goes first. */
export function destinationAfterSignIn(fallback = paths.home()): string {
  if (sessionStorage.getItem("pendingInvite")) return paths.invite();
  const to = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  return to && to.startsWith("/") && !to.startsWith("//") ? to : fallback;
}
