/**
 * A password mail (invitation, reset), or an e-mail confirmation (email_change_id), as it is sent: its stored body names
 * the link (`password_link_id`) and holds LINK_SLOT where the link goes; the
 * link's token is made now (issueLinkToken) and put in the slot of the copy
 * handed to the mailer, so the token is never stored, in the mail or
 * anywhere (#31 item 13). A link used, replaced or expired before its mail
 * goes out sends nothing: the attempt fails, final, saying why.
 */
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import type { Delivery } from '../db/schema.js';
import { issueLinkToken, LINK_SLOT, linkUrl } from '../domain/auth/passwordLinks.js';
import { emailChangeUrl, issueEmailChangeToken } from '../domain/agents/emailChangeLinks.js';
import { parseJson } from '../lib/json.js';
import type { SendResult } from '../webhooks/send.js';
import { escapeHtml } from './compose.js';

/** What a password mail's stored body has besides the mail itself. */
export interface PasswordLinkRef {
  password_link_id?: number;
  /** An e-mail confirmation's link (email_changes.id, domain/agents/emailChanges.ts), made the same way. */
  email_change_id?: number;
}

/** The row to send: itself, a copy with the link in its slot, or the failure to record. */
export async function withPasswordLink(
  db: Db,
  config: Pick<Config, 'publicUrl'>,
  row: Delivery,
  now: number,
): Promise<{ row: Delivery } | { failed: SendResult }> {
  const body = parseJson<Record<string, unknown> | null>(row.body, null);
  const linkId = body?.password_link_id;
  const changeId = body?.email_change_id;
  if (!body || (typeof linkId !== 'number' && typeof changeId !== 'number')) return { row };
  const token = typeof linkId === 'number' ? await issueLinkToken(db, linkId, now) : await issueEmailChangeToken(db, changeId as number, now);
  if (token === null) {
    const what = typeof linkId === 'number' ? 'its password link was used, replaced or expired' : 'its e-mail change was confirmed, replaced or expired';
    return { failed: { ok: false, excerpt: '', error: `not sent: ${what} before the mail went out`, failure: 'rejected' } };
  }
  const url = typeof linkId === 'number' ? linkUrl(config.publicUrl, token) : emailChangeUrl(config.publicUrl, token);
  const fill = (part: unknown, value: string): unknown => (typeof part === 'string' ? part.split(LINK_SLOT).join(value) : part);
  const filled = { ...body, text: fill(body.text, url), html: fill(body.html, escapeHtml(url)) };
  return { row: { ...row, body: JSON.stringify(filled) } };
}
