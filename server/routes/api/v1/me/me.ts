/** GET /me, PUT /me/status, PUT /me/password: the signed-in agent, its availability and its own password. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../context.js';
import { setAgentStatus } from '../../../../domain/agents/setAgentStatus.js';
import { changeOwnPassword } from '../../../../domain/auth/changeOwnPassword.js';
import { presentAgent } from '../../../../presenters/agent.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { PasswordBody } from '../auth/schema.js';

const StatusBody = Type.Object({
  status: Type.Union([Type.Literal('online'), Type.Literal('away'), Type.Literal('offline')]),
});

export async function meRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent } = makeGuards(ctx);

  app.get('/me', { schema: { tags: ['me'], security: [{ bearer: [] }] }, preValidation: requireAgent }, async (request) => presentAgent(actor(request)));

  app.put('/me/status', { schema: { tags: ['me'], security: [{ bearer: [] }], body: StatusBody }, preValidation: requireAgent }, async (request) => {
    const me = actor(request);
    const agent = await setAgentStatus(ctx, { agentId: me.id, accountId: me.account_id, status: request.body.status });
    return presentAgent(agent);
  });

  // 204: the session that asked stays signed in; every other session of the person ends.
  app.put('/me/password', { schema: { tags: ['me'], security: [{ bearer: [] }], body: PasswordBody }, preValidation: requireAgent }, async (request, reply) => {
    await changeOwnPassword(ctx, {
      agent: actor(request),
      token: request.authToken ?? '',
      currentPassword: request.body.current_password,
      newPassword: request.body.new_password,
      ip: request.ip,
    });
    return reply.code(204).send();
  });
}
