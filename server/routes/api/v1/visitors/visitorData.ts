/**
 * A person's data, for requests of access (administrators; docs/DATA.md
 * "Export"): GET /api/v1/visitors?email=|phone=|user_token=|channel_id=&sender_id=
 * finds their visitor records; GET /api/v1/visitors/:id/export gives one
 * visitor's data as one JSON document, as a file to hand over.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { findVisitors } from '../../../../domain/visitors/findVisitors.js';
import { visitorData } from '../../../../domain/visitors/visitorData.js';
import { presentExportVisitor, presentVisitorExport } from '../../../../presenters/export.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { IdParams, readId } from '../../../params.js';

const FindQuery = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 320, description: "The person's e-mail, any case." })),
  phone: Type.Optional(Type.String({ maxLength: 40, description: 'Their phone: the digits are compared, whatever the separators.' })),
  user_token: Type.Optional(Type.String({ maxLength: 1000, description: "The widget's user token your site gave them." })),
  channel_id: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,9}$', description: 'A channel id: alone, its visitors; with sender_id, one chat-channel sender.' }),
  ),
  sender_id: Type.Optional(Type.String({ maxLength: 1000, description: "A chat channel's sender.id (needs channel_id)." })),
});

export async function visitorDataRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAdmin } = makeGuards(ctx);
  const guarded = { tags: ['visitors'], security: [{ bearer: [] }] };
  app.get(
    '/visitors',
    {
      schema: {
        ...guarded,
        querystring: FindQuery,
        summary: "Find a person's visitor records by e-mail, phone, user token or chat-channel sender (administrators)",
      },
      preValidation: requireAdmin,
    },
    async (request) => {
      const { channel_id: channelId, ...rest } = request.query;
      const query = { ...rest, ...(channelId === undefined ? {} : { channel_id: Number(channelId) }) };
      return (await findVisitors(ctx, actor(request).account_id, query)).map(presentExportVisitor);
    },
  );
  app.get(
    '/visitors/:id/export',
    {
      schema: {
        ...guarded,
        params: IdParams,
        summary: "One visitor's data: details, chats with messages, files, calls, offline messages, events and deliveries (administrators)",
      },
      preValidation: requireAdmin,
    },
    async (request, reply) => {
      const id = readId(request.params, 'Visitor');
      const data = await visitorData(ctx, actor(request).account_id, id);
      void reply.header('content-disposition', `attachment; filename="parley-visitor-${data.visitor.number}.json"`).header('cache-control', 'no-store');
      return presentVisitorExport(data, ctx.config.publicUrl, ctx.clock());
    },
  );
}
