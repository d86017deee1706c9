/**
 * The invitation mail, sent when an invite names an address (on creation and on resend), after
 * the invite is committed. It says which location, who invites and as what role, like the invite
 * page does (POST /invites/preview). A mail that fails is the caller's `onMailError` and `false`:
 * the admin still holds the link to hand over.
 */
import type { Role } from "../../../shared/roles.js";
import type { Mailer } from "../../mail/mailer.js";

export interface InviteMailDeps {
  mailer: Mailer;
  publicUrl: URL;
  onMailError(err: unknown): void;
}

const ROLE_WORDS: Record<Role, string> = { owner: "an owner", admin: "an admin", member: "a member", viewer: "a viewer (you see, but do not change)" };

/** The page an invite token opens; the token rides in the fragment, which browsers never send. */
export const inviteLink = (publicUrl: URL, token: string) => `${new URL("/invite", publicUrl).href}#token=${encodeURIComponent(token)}`;

export async function mailInvite(
  deps: InviteMailDeps,
  invite: { to: string; token: string; locationName: string; inviterName: string; role: Role },
): Promise<boolean> {
  const { to, token, locationName, inviterName, role } = invite;
  try {
    await deps.mailer.send({
      kind: "invite",
      to,
      subject: `${inviterName} invites you to ${locationName} in Inventory`,
      // Short lines: a mail whose lines stay under 76 characters keeps its link unbroken.
      text: [
        `${inviterName} invites you to share a location in Inventory:`,
        "",
        `  ${locationName}`,
        "",
        `You would join as ${ROLE_WORDS[role]}.`,
        "",
        "To accept, open:",
        "",
        inviteLink(deps.publicUrl, token),
        "",
        "The link works once, for 7 days, and only for the address",
        `${to}.`,
        "If you did not expect this mail, ignore it.",
      ].join("\n"),
    });
    return true;
  } catch (err) {
    deps.onMailError(err);
    return false;
  }
}
