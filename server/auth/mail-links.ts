/**
 * Links sent by mail (spec "Ways to sign in"): password reset and magic link. Both carry their
 * token in the URL fragment (`/reset#token=`, `/magic#token=`), which browsers never send to a
 * server and mail scanners do not follow into a request; the web page posts it. Mail goes out in
 * the background so the answer takes as long whether or not the address has an account.
 */
import { and, eq, ne } from "drizzle-orm";
import { magicLink } from "better-auth/plugins";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { authAccounts, users } from "../db/schema/index.js";
import { isSyntheticEmail, type Mail, type Mailer } from "../mail/mailer.js";

/** Spec Limits: magic link validity. */
export const MAGIC_LINK_SECONDS = 15 * 60;
export const RESET_LINK_SECONDS = 60 * 60;

export function mailLinks(db: Db, config: Config, mailer: Mailer, logger: Logger) {
  const link = (page: string, token: string) => `${new URL(page, config.publicUrl).href}#token=${encodeURIComponent(token)}`;
  const inBackground = (mail: Mail) => {
    void mailer.send(mail).catch((err: unknown) => logger.error({ err, kind: mail.kind }, "mail could not be sent"));
  };

  return {
    sendResetPassword: async ({ user, token }: { user: { email: string }; token: string }) => {
      if (isSyntheticEmail(user.email)) return;
      inBackground({
        kind: "password-reset",
        to: user.email,
        subject: "Reset your Inventory password",
        text: [
          "Someone asked to reset the password of your Inventory account. To choose a new one, open:",
          "",
          link("/reset", token),
          "",
          "The link works once, for one hour. If this was not you, ignore this mail: your password stays as it is.",
        ].join("\n"),
      });
      return Promise.resolve();
    },

    /**
     * A reset proves the person reads this mailbox. If the address had never been proven, whatever
     * else was linked to the account before (an OAuth link someone else may have made) is dropped,
     * as the library does for a first magic link; from now on the address counts as proven.
     */
    onPasswordReset: async ({ user }: { user: { id: string; emailVerified: boolean } }) => {
      if (user.emailVerified) return;
      await db.delete(authAccounts).where(and(eq(authAccounts.userId, user.id), ne(authAccounts.providerId, "credential")));
      await db.update(users).set({ emailVerified: true }).where(eq(users.id, user.id));
    },

    magicLinkPlugin: magicLink({
      expiresIn: MAGIC_LINK_SECONDS,
      storeToken: "hashed",
      disableSignUp: true,
      // Existing accounts only: an unknown address gets the same answer and no mail.
      async sendMagicLink({ email, token }) {
        const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
        if (!user || isSyntheticEmail(email)) return;
        inBackground({
          kind: "magic-link",
          to: email,
          subject: "Your Inventory sign-in link",
          text: [
            "Open this link to sign in to Inventory:",
            "",
            link("/magic", token),
            "",
            "It works once, for 15 minutes. If you did not ask for it, ignore this mail.",
          ].join("\n"),
        });
      },
    }),
  };
}
