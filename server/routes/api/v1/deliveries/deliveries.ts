/**
 * /api/v1/deliveries (admin): the log of outgoing requests (chat-channel
 * deliveries and event webhooks) with status, attempts and last answer, and
 * redelivery of one of them.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../context.js';
import { presentDelivery } from '../../../../presenters/delivery.js';
import { listDeliveries, redeliver } from '../../../../webhooks/log.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { readPage } from '../../../pagination.js';
import { IdParams, readId } from '../../../params.js';
import { DeliverySchema, ListDeliveriesQuery } from './schema.js';

const tags = ['deliveries'];
const security = [{ bearer: [] }];

export async function deliveriesRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAdmin } = makeGuards(ctx);

  app.get(
    '/deliveries',
    { schema: { tags, security, querystring: ListDeliveriesQuery, response: { 200: Type.Array(DeliverySchema) } }, preValidation: requireAdmin },
    async (request) => {
      const page = readPage(request.query);
      const rows = await listDeliveries(ctx, {
        accountId: actor(request).account_id,
        limit: page.limit,
        before: page.before ?? undefined,
        status: request.query.status,
        kind: request.query.kind,
      });
      return rows.map(presentDelivery);
    },
  );

  app.post(
    '/deliveries/:id/redeliver',
    { schema: { tags, security, params: IdParams, response: { 200: DeliverySchema } }, preValidation: requireAdmin },
    async (request) => {
      const deliveryId = readId(request.params, 'Delivery');
      return presentDelivery(await redeliver(ctx, { accountId: actor(request).account_id, deliveryId }));
    },
  );
}
