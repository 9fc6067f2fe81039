/**
 * GET /api/v1/mails (admin): the account's mails, newest first, paged — what
 * was composed (recipient, subject, text and HTML parts) and its status:
 * `kept` when no SMTP_URL is set (composed, never sent), otherwise pending,
 * delivered or failed (with the reason).
 * GET /api/v1/mails/status (admin): whether mails are sent (SMTP_URL set)
 * or kept, and the sender, so the Mail page can say so even when empty.
 * POST /api/v1/mails/:id/link (admin): the link of a kept invitation or
 * password reset, made now to copy and hand over (mail/keptMailLink.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../context.js';
import { keptMailLink } from '../../../../mail/keptMailLink.js';
import { listMails } from '../../../../mail/listMails.js';
import { presentMail } from '../../../../presenters/mail.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { PageQuery, readPage } from '../../../pagination.js';
import { IdParams, readId } from '../../../params.js';

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const MailSchema = Type.Object({
  id: Type.Number(),
  type: Type.String({ description: 'offline_message, callback_request, invitation, password_reset …' }),
  to: Type.String(),
  reply_to: NullableString,
  subject: Type.String(),
  text: Type.String({ description: 'The plain-text part.' }),
  html: Type.String({ description: 'The HTML part.' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('kept')], {
    description: 'kept: composed while SMTP_URL is unset, never sent.',
  }),
  attempts: Type.Number(),
  last_error: NullableString,
  chat_id: NullableNumber,
  created_at: Type.Number(),
  delivered_at: NullableNumber,
  next_attempt_at: NullableNumber,
});

export async function mailsRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAdmin } = makeGuards(ctx);

  app.get(
    '/mails/status',
    {
      schema: {
        tags: ['mails'],
        security: [{ bearer: [] }],
        response: {
          200: Type.Object({
            smtp: Type.Boolean({ description: 'true when SMTP_URL is set (mails are sent); false: mails are kept, composed but never sent.' }),
            from: Type.String({ description: 'MAIL_FROM, the sender of every mail.' }),
          }),
        },
      },
      preValidation: requireAdmin,
    },
    async () => ({ smtp: ctx.config.smtpUrl !== null, from: ctx.config.mailFrom }),
  );

  app.get(
    '/mails',
    { schema: { tags: ['mails'], security: [{ bearer: [] }], querystring: PageQuery, response: { 200: Type.Array(MailSchema) } }, preValidation: requireAdmin },
    async (request) => {
      const page = readPage(request.query);
      const rows = await listMails(ctx, { accountId: actor(request).account_id, limit: page.limit, before: page.before });
      return rows.map(presentMail);
    },
  );

  app.post(
    '/mails/:id/link',
    {
      schema: {
        tags: ['mails'],
        security: [{ bearer: [] }],
        summary: 'The link of a kept invitation or password reset, made now to copy (an earlier copy stops working) → {url, expires_at, to}',
        description:
          'Only for a mail kept while SMTP_URL is unset: 409 conflict for a sent one, 404 for a mail without a link, 404 link_invalid / 410 link_expired when its link was used, replaced or expired. The link is in this answer only, never stored.',
        params: IdParams,
        response: { 200: Type.Object({ url: Type.String(), expires_at: Type.Number(), to: Type.String() }) },
      },
      preValidation: requireAdmin,
    },
    async (request) => keptMailLink(ctx, { accountId: actor(request).account_id, mailId: readId(request.params, 'Mail') }),
  );
}
