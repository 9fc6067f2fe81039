/** A mail (a delivery of kind `mail`) as the admin's Mail page shows it: what was composed and what became of it. */
import type { Delivery } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import { MAIL_TYPE_PREFIX, type StoredMail } from '../mail/enqueueMail.js';
import type { MailDto } from '../../protocol/agent.js';
export type { MailDto };

export function presentMail(d: Delivery): MailDto {
  const mail = parseJson<Partial<StoredMail>>(d.body, {});
  return {
    id: d.id,
    type: d.event_type.startsWith(MAIL_TYPE_PREFIX) ? d.event_type.slice(MAIL_TYPE_PREFIX.length) : d.event_type,
    to: mail.to ?? d.url.replace(/^mailto:/, ''),
    reply_to: mail.reply_to ?? null,
    subject: mail.subject ?? '',
    text: mail.text ?? '',
    html: mail.html ?? '',
    // Mails are never paused nor cancelled; such a row would be a bug, shown as still to be sent.
    status: d.status === 'paused' || d.status === 'cancelled' ? 'pending' : d.status,
    attempts: d.attempts,
    last_error: d.last_error,
    chat_id: d.chat_id,
    created_at: d.created_at,
    delivered_at: d.delivered_at,
    next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
  };
}
