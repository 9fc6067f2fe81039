/**
 * enqueueMail(): writes a mail as a `deliveries` row of kind `mail` inside
 * the caller's transaction (the same outbox as webhooks), so a mail exists
 * exactly when what caused it committed. With SMTP_URL set the row is
 * `pending` and the deliverer sends it (server/mail/send.ts); without it the
 * row is `kept`: composed, readable on the admin's Mail page, never sent.
 * The row's url is `mailto:<recipient>`, its event_type `mail.<type>` (never
 * mistaken for an event webhook's), its body the composed mail as JSON.
 */
import type { Config } from '../config/config.js';
import type { Tx } from '../db/database.js';
import { storedAccountName } from '../domain/accounts/accountName.js';
import { enqueueDelivery } from '../webhooks/enqueue.js';
import type { MailContent } from './compose.js';
import type { PasswordLinkRef } from './passwordLinkMail.js';
import type { StoredMail } from './send.js';

/** Prefix of a mail row's event_type: `mail.offline_message`, `mail.invitation` … */
export const MAIL_TYPE_PREFIX = 'mail.';

/** What a mail row's body holds (JSON); defined beside its reader, send.ts. */
export type { StoredMail };

export interface NewMail extends MailContent {
  accountId: number;
  /** What the mail is: offline_message, callback_request, invitation, password_reset … */
  type: string;
  to: string;
  replyTo?: string | null;
  chatId?: number | null;
  /** The visitor the mail is about when no chat says so (an offline message, a callback request): erasure finds it. */
  visitorId?: number | null;
  /** A password mail's link (password_links.id): its token is made as the mail is sent (passwordLinkMail.ts), never stored. */
  passwordLinkId?: number;
  /** An e-mail confirmation's link (email_changes.id): made as the mail is sent, like a password link. */
  emailChangeId?: number;
}

export async function enqueueMail(tx: Tx, config: Pick<Config, 'smtpUrl'>, mail: NewMail, now: number): Promise<number> {
  const body: StoredMail & PasswordLinkRef = { to: mail.to, reply_to: mail.replyTo ?? null, subject: mail.subject, text: mail.text, html: mail.html };
  if (mail.passwordLinkId !== undefined) body.password_link_id = mail.passwordLinkId;
  if (mail.emailChangeId !== undefined) body.email_change_id = mail.emailChangeId;
  // The company's name, when set, is the From display name (send.ts senderOf).
  const accountName = await storedAccountName(tx, mail.accountId);
  if (accountName !== '') body.from_name = accountName;
  const { id } = await enqueueDelivery(
    tx,
    {
      accountId: mail.accountId,
      kind: 'mail',
      eventType: `${MAIL_TYPE_PREFIX}${mail.type}`,
      url: `mailto:${mail.to}`,
      body,
      chatId: mail.chatId ?? null,
      visitorId: mail.visitorId ?? null,
      kept: config.smtpUrl === null,
    },
    now,
  );
  return id;
}
