/**
 * GET /api/v1/offline-messages: what visitors left through the widget's
 * offline form, for any agent of the account (the channels it works; all
 * for administrators), newest first, paged with ?limit= and ?before=,
 * ?handled=true|false for only those handled or not; PATCH
 * /api/v1/offline-messages/:id {handled} marks one handled (or not again).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../context.js';
import { listOfflineMessages } from '../../../../domain/offlineMessages/listOfflineMessages.js';
import { markOfflineMessageHandled } from '../../../../domain/offlineMessages/markOfflineMessageHandled.js';
import { invalid } from '../../../../errors/AppError.js';
import { IdParams, readId } from '../../../params.js';
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
  handled_at: Type.Union([Type.Integer(), Type.Null()], { description: 'When an agent marked it handled (epoch ms); null while not handled.' }),
  handled_by: Type.Union([Type.Integer(), Type.Null()], { description: 'The agent who marked it handled; null while not handled.' }),
});

const ListQuery = Type.Intersect([
  PageQuery,
  Type.Object(
    { handled: Type.Optional(Type.String({ description: '"true": only messages marked handled; "false": only those not handled; absent: all.' })) },
    { additionalProperties: true },
  ),
]);
const HandledBody = Type.Object(
  { handled: Type.Boolean({ description: 'true marks the message handled (now, by the caller); false marks it not handled again.' }) },
  { additionalProperties: false },
);

function readHandled(value: string | undefined): boolean | null {
  if (value === undefined) return null;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalid(`handled must be true or false (got "${value.slice(0, 20)}").`);
}

export async function offlineMessagesRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent } = makeGuards(ctx);
  app.get(
    '/offline-messages',
    {
      schema: { tags: ['offline messages'], security: [{ bearer: [] }], querystring: ListQuery, response: { 200: Type.Array(OfflineMessageSchema) } },
      preValidation: requireAgent,
    },
    async (request) => {
      const query = request.query as { handled?: string };
      const rows = await listOfflineMessages(ctx, { actor: actor(request), page: readPage(request.query), handled: readHandled(query.handled) });
      return rows.map(presentOfflineMessage);
    },
  );
  app.patch(
    '/offline-messages/:id',
    {
      schema: {
        tags: ['offline messages'],
        security: [{ bearer: [] }],
        params: IdParams,
        body: HandledBody,
        response: { 200: OfflineMessageSchema },
      },
      preValidation: requireAgent,
    },
    async (request) => {
      const row = await markOfflineMessageHandled(ctx, { actor: actor(request), id: readId(request.params, 'Offline message'), handled: request.body.handled });
      return presentOfflineMessage(row);
    },
  );
}
