/**
 * Erasing a visitor everywhere (#33, docs/DATA.md "Erasure"), administrators
 * only: DELETE /api/v1/visitors/:id answers 202 with the erasure job (its
 * details are gone at once, the rest follows in the background), GET
 * /api/v1/erasures/:id shows how far it is.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../context.js';
import { getErasure } from '../../../../domain/erasure/getErasure.js';
import { requestErasure } from '../../../../domain/erasure/requestErasure.js';
import { presentErasure } from '../../../../presenters/erasure.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { IdParams, readId } from '../../../params.js';

export async function erasuresRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { requireAdmin } = makeGuards(ctx);
  const guarded = { security: [{ bearer: [] }] };
  app.delete<{ Params: { id: string } }>(
    '/visitors/:id',
    {
      schema: {
        tags: ['visitors'],
        ...guarded,
        params: IdParams,
        summary: 'Erase a visitor and everything about it (administrators) → 202 {erasure}; progress at GET /erasures/:id',
      },
      preValidation: requireAdmin,
    },
    async (request, reply) => {
      const { erasure } = await requestErasure(ctx, actor(request), readId(request.params, 'Visitor'));
      return reply.code(202).send({ erasure: presentErasure(erasure) });
    },
  );
  app.get<{ Params: { id: string } }>(
    '/erasures/:id',
    {
      schema: { tags: ['visitors'], ...guarded, params: IdParams, summary: "An erasure's progress (administrators) → {erasure}" },
      preValidation: requireAdmin,
    },
    async (request) => ({ erasure: presentErasure(await getErasure(ctx, actor(request), readId(request.params, 'Erasure'))) }),
  );
}
