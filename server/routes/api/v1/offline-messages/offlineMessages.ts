/**
 * GET /api/v1/offline-messages: what visitors left through the widget's
 * offline form, for any agent of the account (the channels it works; all
 * for administrators), newest first, paged with ?limit= and ?before=.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../context.js';
import { listOfflineMessages } from '../../../../domain/widget/listOfflineMessages.js';
import { presentOfflineMessage } from '../../../../presenters/offlineMessage.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { PageQuery, readPage } from '../../../pagination.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const OfflineMessageSchema = Type.Object({
  id: Type.Integer(),
  channel_id: Type.Integer(),
  visitor_id: Type.Union([Type.Integer(), Type.Null()]),
  name: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  description: Nullable(Type.String()),
  message: Type.String(),
  created_at: Type.Integer({ description: 'Epoch milliseconds.' }),
});

export async function offlineMessagesRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent } = makeGuards(ctx);
  app.get(
    '/offline-messages',
    {
      schema: { tags: ['offline messages'], security: [{ bearer: [] }], querystring: PageQuery, response: { 200: Type.Array(OfflineMessageSchema) } },
      preValidation: requireAgent,
    },
    async (request) => {
      const rows = await listOfflineMessages(ctx, { actor: actor(request), page: readPage(request.query) });
      return rows.map(presentOfflineMessage);
    },
  );
}
