/**
 * /api/v1/calls (/openapi.json): callback calls of the account, for the agents
 * who work their channels (every agent for a channel with no agent_ids or a
 * call without a channel; administrators all: domain/calls/queryCalls.ts) —
 * list (newest first, ?status=, paging), read one, and report a call's status
 * (agent_connected, client_connected, end, error).
 * Visitors ask for calls through the widget, not here.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { getCall, listCalls } from '../../../../domain/calls/queryCalls.js';
import { updateCallStatus } from '../../../../domain/calls/updateCallStatus.js';
import { presentCall } from '../../../../presenters/call.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { readPage } from '../../../pagination.js';
import { IdParams, readId } from '../../../params.js';
import { readableSchemaErrors } from '../../../validationMessage.js';
import { CallListQuery, CallStatusBody } from './schema.js';

export async function callsRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent } = makeGuards(ctx);
  const opts = { tags: ['calls'], security: [{ bearer: [] }] };
  // Who calls is checked before the input, so a stranger gets 401, not 400.
  const agent = { preValidation: requireAgent, schemaErrorFormatter: readableSchemaErrors };

  app.get('/calls', { schema: { ...opts, querystring: CallListQuery }, ...agent }, async (request) => {
    const calls = await listCalls(ctx, { actor: actor(request), status: request.query.status, page: readPage(request.query) });
    return calls.map(presentCall);
  });

  app.get('/calls/:id', { schema: { ...opts, params: IdParams }, ...agent }, async (request) =>
    presentCall(await getCall(ctx, { actor: actor(request), callId: readId(request.params, 'Call') })),
  );

  app.post('/calls/:id/status', { schema: { ...opts, params: IdParams, body: CallStatusBody }, ...agent }, async (request) => {
    const { status, reason, record_url } = request.body;
    const call = await updateCallStatus(ctx, { actor: actor(request), callId: readId(request.params, 'Call'), status, reason, record_url });
    return presentCall(call);
  });
}
