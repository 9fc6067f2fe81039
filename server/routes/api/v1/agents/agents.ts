/**
 * /api/v1/agents: admins add and change agents; every signed-in agent may
 * read the agents of its own account.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { createAgent } from '../../../../domain/agents/createAgent.js';
import { getAgent, listAgents } from '../../../../domain/agents/listAgents.js';
import { inviteAgent } from '../../../../domain/agents/inviteAgent.js';
import { updateAgent } from '../../../../domain/agents/updateAgent.js';
import { forcePasswordReset } from '../../../../domain/auth/resetPassword.js';
import { presentAgent } from '../../../../presenters/agent.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { PageQuery, readPage } from '../../../pagination.js';
import { IdParams, readId } from '../../../params.js';
import { readableSchemaErrors } from '../../../validationMessage.js';
import { CreateAgentBody, LinkSentSchema, UpdateAgentBody, type UpdateAgentBodyT } from './schema.js';

const tags = ['agents'];
const security = [{ bearer: [] }];

export async function agentsRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent, requireAdmin } = makeGuards(ctx);
  // Who may call is checked before the input (an agent gets 403, not 400, for a bad body);
  // validation failures answer one readable sentence (see validationMessage.ts).
  const admin = { preValidation: requireAdmin, schemaErrorFormatter: readableSchemaErrors };
  const signedIn = { preValidation: requireAgent, schemaErrorFormatter: readableSchemaErrors };

  app.post('/agents', { schema: { tags, security, body: CreateAgentBody }, ...admin }, async (request, reply) => {
    const { name, email, password, role, phone } = request.body;
    const agent = await createAgent(ctx, { actor: actor(request), name, email, password, role, phone });
    return reply.code(201).send(presentAgent({ ...agent, department_ids: [] }));
  });

  app.get('/agents', { schema: { tags, security, querystring: PageQuery }, ...signedIn }, async (request) => {
    const agents = await listAgents(ctx, { actor: actor(request), page: readPage(request.query) });
    return agents.map(presentAgent);
  });

  app.get('/agents/:id', { schema: { tags, security, params: IdParams }, ...signedIn }, async (request) =>
    presentAgent(await getAgent(ctx, { actor: actor(request), id: readId(request.params, 'Agent') })),
  );

  app.patch('/agents/:id', { schema: { tags, security, params: IdParams, body: UpdateAgentBody }, ...admin }, async (request) => {
    const id = readId(request.params, 'Agent');
    return presentAgent(await updateAgent(ctx, { actor: actor(request), id, changes: pickChanges(request.body) }));
  });

  // Sends (or sends again) the agent's invitation: a new single-use link, earlier ones stop working.
  app.post('/agents/:id/invitation', { schema: { tags, security, params: IdParams, response: { 202: LinkSentSchema } }, ...admin }, async (request, reply) =>
    reply.code(202).send(await inviteAgent(ctx, { actor: actor(request), id: readId(request.params, 'Agent') })),
  );

  // Forces a password reset: the old password stops working, the agent's sessions end, a reset link is mailed.
  app.post(
    '/agents/:id/password-reset',
    { schema: { tags, security, params: IdParams, response: { 202: LinkSentSchema } }, ...admin },
    async (request, reply) => reply.code(202).send(await forcePasswordReset(ctx, { actor: actor(request), id: readId(request.params, 'Agent') })),
  );
}

/** Only the fields the API documents; unknown ones are ignored. */
function pickChanges(body: UpdateAgentBodyT): UpdateAgentBodyT {
  const { name, email, role, phone, password, active, department_ids } = body;
  return { name, email, role, phone, password, active, department_ids };
}
