/**
 * A kept password mail's link, for an administrator to hand over by hand
 * (#36 item 4): without SMTP_URL an invitation or a password reset is only
 * kept on the Mail page, and its stored body holds LINK_SLOT, never a link
 * (passwordLinkMail.ts). POST /mails/:id/link makes the link now, as the
 * deliverer would when sending: a fresh token whose sha256 replaces the
 * row's, so a link made earlier for the same mail stops working, and the
 * token is in this one answer only, never stored. A sent mail's link is in
 * the recipient's mailbox: 409 (making one here would end it).
 */
import type { AppContext } from '../context.js';
import { issueLinkToken, linkUrl } from '../domain/auth/passwordLinks.js';
import { AppError, notFound } from '../errors/AppError.js';
import { parseJson } from '../lib/json.js';

export interface KeptMailLink {
  url: string;
  expires_at: number;
  /** The recipient: the person to give the link to. */
  to: string;
}

export async function keptMailLink(ctx: AppContext, input: { accountId: number; mailId: number }): Promise<KeptMailLink> {
  const row = await ctx.db
    .selectFrom('deliveries')
    .select(['id', 'status', 'body'])
    .where('id', '=', input.mailId)
    .where('account_id', '=', input.accountId)
    .where('kind', '=', 'mail')
    .executeTakeFirst();
  if (!row) throw notFound(`Mail ${input.mailId}`);
  const body = parseJson<{ to?: unknown; password_link_id?: unknown } | null>(row.body, null);
  const linkId = body?.password_link_id;
  if (typeof linkId !== 'number') throw notFound(`A link in mail ${input.mailId} (only invitations and password resets carry one)`);
  if (row.status !== 'kept') {
    throw new AppError(
      'conflict',
      "This mail was sent: its link is in the recipient's mailbox, and making one here would end it. Send a new invitation or reset instead.",
    );
  }
  const now = ctx.clock();
  const link = await ctx.db.selectFrom('password_links').select(['expires_at', 'used_at']).where('id', '=', linkId).executeTakeFirst();
  if (!link || link.used_at !== null)
    throw new AppError('link_invalid', 'This link was used or replaced by a newer one; send a new invitation or reset from Admin → Agents.');
  if (link.expires_at <= now) throw new AppError('link_expired', 'This link has expired; send a new invitation or reset from Admin → Agents.');
  const token = await issueLinkToken(ctx.db, linkId, now);
  if (token === null) throw new AppError('link_invalid');
  return { url: linkUrl(ctx.config.publicUrl, token), expires_at: link.expires_at, to: typeof body?.to === 'string' ? body.to : '' };
}
