/**
 * Outgoing mail (DESIGN.md "Runtime modes"): nodemailer over SVC_SMTP_URL, or, without it, each
 * mail written as an .eml file under SVC_DATA_DIR/mail plus a log line. Log lines name the kind of
 * mail and the file, never the body: bodies carry sign-in links.
 */
import { randomUUID } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Config } from "../config.js";

/** Managed accounts carry a synthetic address that is never mailed (spec "Managed accounts"). */
export const SYNTHETIC_EMAIL_DOMAIN = "managed.invalid";

export function isSyntheticEmail(email: string): boolean {
  return email.trim().toLowerCase().endsWith(`@${SYNTHETIC_EMAIL_DOMAIN}`);
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** What the mail is for, for the log line (e.g. "password-reset"). */
  kind: string;
}

export interface Mailer {
  /** Resolves once the mail is handed to the SMTP server or written; synthetic addresses are skipped. */
  send(mail: Mail): Promise<void>;
}

export function createMailer(config: Config, logger: Logger): Mailer {
  const from = config.mailFrom;
  // nodemailer (a few MB of code) loads with the first mail, not at start: most processes send none for hours.
  let loaded: Promise<Transporter<{ messageId: string }>> | undefined;
  const transport = () =>
    (loaded ??= import("nodemailer").then(({ default: nodemailer }) =>
      config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
    ));
  const dir = path.join(config.dataDir, "mail");
  return {
    async send(mail) {
      if (isSyntheticEmail(mail.to)) {
        logger.warn({ kind: mail.kind }, "mail to a managed account's synthetic address not sent");
        return;
      }
      const info = await (await transport()).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      if (config.smtpUrl) {
        logger.info({ kind: mail.kind, messageId: info.messageId }, "mail sent");
        return;
      }
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`);
      // Written aside and renamed in: whoever watches the folder never opens a half-written mail.
      const partial = `${file}.partial`;
      await writeFile(partial, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
      await rename(partial, file);
      logger.info({ kind: mail.kind, file }, "mail written (no SMTP server configured)");
    },
  };
}
