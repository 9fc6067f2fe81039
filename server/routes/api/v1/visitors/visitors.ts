/** A visitor's chats, for the chat view's "Earlier chats" (GET /api/v1/visitors/:id/chats). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { listVisitorChats } from '../../../../domain/visitors/listVisitorChats.js';
import { presentChatRows } from '../../../../presenters/chat.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { PageQuery, readPage } from '../../../pagination.js';
import { IdParams, readId } from '../../../params.js';

export async function visitorsRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent } = makeGuards(ctx);
  app.get(
    '/visitors/:id/chats',
    { schema: { tags: ['visitors'], security: [{ bearer: [] }], params: IdParams, querystring: PageQuery }, preValidation: requireAgent },
    async (request) =>
      presentChatRows(await listVisitorChats(ctx, { actor: actor(request), visitorId: readId(request.params, 'Visitor'), page: readPage(request.query) })),
  );
}
