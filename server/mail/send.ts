/**
 * One SMTP attempt of a mail row, with nodemailer: SMTP_URL gives the server
 * (smtp:// with STARTTLS when offered, smtps:// with TLS from the start; user
 * and password from the URL), MAIL_FROM the sender. With a user and password
 * on smtp://, STARTTLS is required before AUTH (#31 item 12): a server that
 * offers none gets no credentials, and the attempt fails with a reason
 * saying so, unless the URL opts out with `?cleartext_auth=allow`. The server's certificate
 * is always verified: against the public CAs, and the certificates of
 * SMTP_TLS_CA_FILE when set (a private CA, a self-signed server). Never throws: every
 * outcome is a SendResult the deliverer judges like an HTTP answer:
 * - accepted → ok;
 * - a 5xx answer (unknown mailbox, refused sender, bad credentials) →
 *   `rejected`, final: sending the same mail again cannot help;
 * - a 4xx answer, a refused or dropped connection, a timeout → retried with
 *   the mail policy's backoff (deliveryKind.ts).
 * The Message-ID is derived from the row's webhook_id, so a mail retried after
 * an uncertain attempt carries the same id (receivers can drop the copy), at
 * PUBLIC_URL's host (`<id@chat.example.com>`), the service's own name.
 */
import tls from 'node:tls';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Config } from '../config/config.js';
import type { Delivery } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import type { SendResult } from '../webhooks/send.js';

/** What a mail row's body holds (JSON), as enqueueMail.ts writes it. */
export interface StoredMail {
  to: string;
  reply_to: string | null;
  subject: string;
  text: string;
  html: string;
  /** The company's name (accounts.name) when set: the From display name, in place of MAIL_FROM's (enqueueMail.ts). */
  from_name?: string;
}

/**
 * The From of a mail: MAIL_FROM's address with the company's name as its
 * display name ("Acme Bikes" <parley@example.com>), when the account has a
 * name and MAIL_FROM names no sender of its own (none, or the default
 * "Parley"); an operator's own display name in MAIL_FROM stays.
 */
export function senderOf(mailFrom: string, fromName: string | undefined): string | { name: string; address: string } {
  if (typeof fromName !== 'string' || fromName.trim() === '') return mailFrom;
  const m = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(mailFrom);
  const ownName = (m?.[1] ?? '').replace(/^"(.*)"$/, '$1').trim();
  if (ownName !== '' && ownName !== 'Parley') return mailFrom;
  return { name: fromName.trim(), address: m?.[2] ?? mailFrom.trim() };
}

export class Mailer {
  private readonly transport: Transporter<SMTPTransport.SentMessageInfo>;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    timeoutMs: number,
    /** PEM certificates trusted besides the public CAs (SMTP_TLS_CA_FILE). */
    extraCa: string | null = null,
    /** The right-hand side of every Message-ID: PUBLIC_URL's host. */
    private readonly messageIdHost = 'localhost',
  ) {
    const u = new URL(smtpUrl);
    const secure = u.protocol === 'smtps:';
    // Credentials never go over a connection that is not encrypted, unless the operator said so in the URL.
    const requireTLS = !secure && u.username !== '' && !cleartextAuthAllowed(u);
    const step = Math.max(1000, Math.floor(timeoutMs / 2));
    this.transport = nodemailer.createTransport({
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: u.port ? Number(u.port) : secure ? 465 : 587,
      secure,
      requireTLS,
      auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
      connectionTimeout: step,
      greetingTimeout: step,
      socketTimeout: timeoutMs,
      // Node's `ca` replaces the public CAs: keep them, and add the configured ones.
      tls: extraCa ? { ca: [...tls.rootCertificates, extraCa], rejectUnauthorized: true } : { rejectUnauthorized: true },
    });
  }

  /** Sends a mail row; `timeoutMs` bounds the whole attempt. */
  async send(row: Pick<Delivery, 'body' | 'webhook_id'>, timeoutMs: number): Promise<SendResult> {
    const mail = parseJson<StoredMail | null>(row.body, null);
    if (!mail || typeof mail.to !== 'string') return { ok: false, excerpt: '', error: 'the stored mail is unreadable', failure: 'rejected' };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<SendResult>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, excerpt: '', error: `the mail server did not answer within ${timeoutMs} ms`, failure: 'timeout' }),
        timeoutMs,
      );
    });
    const attempt = this.transport
      .sendMail({
        from: senderOf(this.from, mail.from_name),
        to: mail.to,
        replyTo: mail.reply_to ?? undefined,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${row.webhook_id}@${this.messageIdHost}>`,
      })
      .then(
        (info): SendResult => ({ ok: true, excerpt: String(info.response ?? '').slice(0, 2000) }),
        (err: unknown): SendResult => smtpFailure(err),
      );
    try {
      return await Promise.race([attempt, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** SMTP_URL's opt-out of TLS before AUTH: `?cleartext_auth=allow` (config.ts accepts no other query). */
export const CLEARTEXT_AUTH_PARAM = 'cleartext_auth';

export function cleartextAuthAllowed(u: URL): boolean {
  return u.searchParams.get(CLEARTEXT_AUTH_PARAM) === 'allow';
}

/** A nodemailer error as a result: 5xx is final, anything else is worth retrying. */
export function smtpFailure(err: unknown): SendResult {
  const e = err as { responseCode?: unknown; response?: unknown; code?: unknown; message?: unknown; command?: unknown };
  const code = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const said = typeof e.response === 'string' ? e.response : typeof e.message === 'string' ? e.message : 'unknown error';
  if (e.code === 'ETLS' || e.command === 'STARTTLS') {
    // Retried: the operator may turn STARTTLS on, or change SMTP_URL and restart, and the mail still goes.
    return {
      ok: false,
      ...(code === undefined ? {} : { statusCode: code }),
      excerpt: said.slice(0, 2000),
      error:
        'the mail server offers no TLS (STARTTLS), so the user name and password were not sent; use smtps://, turn STARTTLS on at the server, ' +
        `or add ?${CLEARTEXT_AUTH_PARAM}=allow to SMTP_URL to send them in clear text (${said.slice(0, 200)})`,
      failure: 'network',
    };
  }
  if (code !== undefined && code >= 500) {
    return { ok: false, statusCode: code, excerpt: said.slice(0, 2000), error: `the mail server refused the mail: ${said.slice(0, 300)}`, failure: 'rejected' };
  }
  if (code !== undefined) {
    return { ok: false, statusCode: code, excerpt: said.slice(0, 2000), error: `the mail server deferred the mail: ${said.slice(0, 300)}`, failure: 'status' };
  }
  const kind = e.code === 'ETIMEDOUT' ? 'timeout' : 'network';
  return { ok: false, excerpt: '', error: `the mail server could not be reached: ${said.slice(0, 300)}`, failure: kind };
}

/** The process's mailer, or null when SMTP_URL is unset (mails are kept, not sent). */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'smtpTlsCa' | 'publicUrl'>, timeoutMs: number): Mailer | null {
  return config.smtpUrl === null ? null : new Mailer(config.smtpUrl, config.mailFrom, timeoutMs, config.smtpTlsCa, messageIdHost(config.publicUrl));
}

/** PUBLIC_URL's host name, for Message-IDs ("localhost" if it has none). */
export function messageIdHost(publicUrl: string): string {
  try {
    return new URL(publicUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}
