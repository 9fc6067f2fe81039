/**
 * /api/v1/canned-responses: admins add, change and remove ready-made replies;
 * every signed-in agent of the account may list them (the composer's `/` picker).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { createCannedResponse } from '../../../../domain/cannedResponses/createCannedResponse.js';
import { deleteCannedResponse } from '../../../../domain/cannedResponses/deleteCannedResponse.js';
import { listCannedResponses } from '../../../../domain/cannedResponses/listCannedResponses.js';
import { updateCannedResponse } from '../../../../domain/cannedResponses/updateCannedResponse.js';
import { presentCannedResponse } from '../../../../presenters/cannedResponse.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { PageQuery, readPage } from '../../../pagination.js';
import { IdParams, readId } from '../../../params.js';
import { readableSchemaErrors } from '../../../validationMessage.js';
import { CreateCannedResponseBody, UpdateCannedResponseBody } from './schema.js';

const tags = ['canned-responses'];
const security = [{ bearer: [] }];

export async function cannedResponsesRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent, requireAdmin } = makeGuards(ctx);
  // Who may call is checked before the input (an agent gets 403, not 400, for a bad body).
  const admin = { preValidation: requireAdmin, schemaErrorFormatter: readableSchemaErrors };
  const signedIn = { preValidation: requireAgent, schemaErrorFormatter: readableSchemaErrors };

  app.get('/canned-responses', { schema: { tags, security, querystring: PageQuery }, ...signedIn }, async (request) => {
    const rows = await listCannedResponses(ctx, { actor: actor(request), page: readPage(request.query) });
    return rows.map(presentCannedResponse);
  });

  app.post('/canned-responses', { schema: { tags, security, body: CreateCannedResponseBody }, ...admin }, async (request, reply) => {
    const { shortcut, title, text } = request.body;
    const created = await createCannedResponse(ctx, { actor: actor(request), fields: { shortcut, title, text } });
    return reply.code(201).send(presentCannedResponse(created));
  });

  app.patch('/canned-responses/:id', { schema: { tags, security, params: IdParams, body: UpdateCannedResponseBody }, ...admin }, async (request) => {
    const { shortcut, title, text } = request.body;
    const id = readId(request.params, 'Canned response');
    return presentCannedResponse(await updateCannedResponse(ctx, { actor: actor(request), id, fields: { shortcut, title, text } }));
  });

  app.delete('/canned-responses/:id', { schema: { tags, security, params: IdParams }, ...admin }, async (request, reply) => {
    await deleteCannedResponse(ctx, { actor: actor(request), id: readId(request.params, 'Canned response') });
    return reply.code(204).send();
  });
}
