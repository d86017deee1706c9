/** A real SMTP server in the test process (the smtp-server package) that keeps what it receives. */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The text body with quoted-printable soft breaks and escapes undone. */
  text: string;
}

function decodeQuotedPrintable(s: string): string {
  const bytes = s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** The next mail to `to` received after `since` mails, waiting up to `ms`. */
  waitFor(to: string, ms?: number): Promise<ReceivedMail>;
  /** Resolves true if a mail to `to` arrives within `ms` (for "no mail is sent" checks). */
  anyFor(to: string, ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const headerEnd = raw.search(/\r?\n\r?\n/);
        const body = headerEnd >= 0 ? raw.slice(headerEnd).trimStart() : raw;
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          text: /quoted-printable/i.test(raw) ? decodeQuotedPrintable(body) : body,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  const seen = new Map<string, number>();
  const find = (to: string) => {
    const wanted = to.toLowerCase();
    const from = seen.get(wanted) ?? 0;
    const list = mails.filter((m) => m.to.includes(wanted));
    return list.length > from ? { mail: list[from]!, next: from + 1 } : null;
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, ms = 5000) {
      const until = Date.now() + ms;
      for (;;) {
        const hit = find(to);
        if (hit) {
          seen.set(to.toLowerCase(), hit.next);
          return hit.mail;
        }
        if (Date.now() > until) throw new Error(`no mail to ${to} within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async anyFor(to, ms) {
      await new Promise((r) => setTimeout(r, ms));
      return find(to) !== null;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token from a `<public URL>/<page>#token=...` link in a mail. */
export function tokenFromLink(mail: ReceivedMail, page: string): string {
  const m = new RegExp(`https?://[^\\s]+/${page}#token=([^\\s]+)`).exec(mail.text);
  if (!m) throw new Error(`no /${page}#token= link in:\n${mail.text}`);
  return decodeURIComponent(m[1]!);
}
