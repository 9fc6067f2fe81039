/**
 * One SMTP attempt of a mail row, with nodemailer: SMTP_URL gives the server
 * (smtp:// with STARTTLS when offered, smtps:// with TLS from the start; user
 * and password from the URL), MAIL_FROM the sender. The server's certificate
 * is always verified: against the public CAs, and the certificates of
 * SMTP_TLS_CA_FILE when set (a private CA, a self-signed server). Never throws: every
 * outcome is a SendResult the deliverer judges like an HTTP answer:
 * - accepted → ok;
 * - a 5xx answer (unknown mailbox, refused sender, bad credentials) →
 *   `rejected`, final: sending the same mail again cannot help;
 * - a 4xx answer, a refused or dropped connection, a timeout → retried with
 *   the mail policy's backoff (deliveryKind.ts).
 * The Message-ID is derived from the row's webhook_id, so a mail retried after
 * an uncertain attempt carries the same id (receivers can drop the copy).
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
}

export class Mailer {
  private readonly transport: Transporter<SMTPTransport.SentMessageInfo>;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    timeoutMs: number,
    /** PEM certificates trusted besides the public CAs (SMTP_TLS_CA_FILE). */
    extraCa: string | null = null,
  ) {
    const u = new URL(smtpUrl);
    const secure = u.protocol === 'smtps:';
    const step = Math.max(1000, Math.floor(timeoutMs / 2));
    this.transport = nodemailer.createTransport({
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: u.port ? Number(u.port) : secure ? 465 : 587,
      secure,
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
        from: this.from,
        to: mail.to,
        replyTo: mail.reply_to ?? undefined,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${row.webhook_id}@parley>`,
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

/** A nodemailer error as a result: 5xx is final, anything else is worth retrying. */
export function smtpFailure(err: unknown): SendResult {
  const e = err as { responseCode?: unknown; response?: unknown; code?: unknown; message?: unknown };
  const code = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const said = typeof e.response === 'string' ? e.response : typeof e.message === 'string' ? e.message : 'unknown error';
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
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'smtpTlsCa'>, timeoutMs: number): Mailer | null {
  return config.smtpUrl === null ? null : new Mailer(config.smtpUrl, config.mailFrom, timeoutMs, config.smtpTlsCa);
}
