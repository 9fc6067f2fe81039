/**
 * /api/v1/departments/:id/agents (admin): the agents of a department, read
 * and replaced whole ({agent_ids}); docs/ROUTING.md.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { MAX_ID } from '../../../../lib/ids.js';
import { getDepartmentAgents, MAX_MEMBERS, setDepartmentAgents } from '../../../../domain/departments/departmentAgents.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { IdParams, readId } from '../../../params.js';
import { readableSchemaErrors } from '../../../validationMessage.js';

const tags = ['departments'];
const security = [{ bearer: [] }];

const MembersBody = Type.Object(
  {
    agent_ids: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), {
      maxItems: MAX_MEMBERS,
      description: 'Every agent of the department (the list replaces the old one); [] = none.',
    }),
  },
  { additionalProperties: true },
);

export async function departmentMembersRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAdmin } = makeGuards(ctx);
  const admin = { preValidation: requireAdmin, schemaErrorFormatter: readableSchemaErrors };

  app.get('/departments/:id/agents', { schema: { tags, security, params: IdParams }, ...admin }, async (request) =>
    getDepartmentAgents(ctx, { actor: actor(request), id: readId(request.params, 'Department') }),
  );

  app.put('/departments/:id/agents', { schema: { tags, security, params: IdParams, body: MembersBody }, ...admin }, async (request) =>
    setDepartmentAgents(ctx, { actor: actor(request), id: readId(request.params, 'Department'), agentIds: request.body.agent_ids }),
  );
}
