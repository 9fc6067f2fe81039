/**
 * /api/v1/departments: admins add, rename and remove departments; every
 * signed-in agent may list those of its account.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { createDepartment } from '../../../../domain/departments/createDepartment.js';
import { deleteDepartment } from '../../../../domain/departments/deleteDepartment.js';
import { listDepartments } from '../../../../domain/departments/listDepartments.js';
import { renameDepartment } from '../../../../domain/departments/renameDepartment.js';
import { presentDepartment } from '../../../../presenters/department.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { PageQuery, readPage } from '../../../pagination.js';
import { IdParams, readId } from '../../../params.js';
import { readableSchemaErrors } from '../../../validationMessage.js';
import { DepartmentBody } from './schema.js';

const tags = ['departments'];
const security = [{ bearer: [] }];

export async function departmentsRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent, requireAdmin } = makeGuards(ctx);
  // Who may call is checked before the input (an agent gets 403, not 400, for a bad body);
  // validation failures answer one readable sentence (see validationMessage.ts).
  const admin = { preValidation: requireAdmin, schemaErrorFormatter: readableSchemaErrors };
  const signedIn = { preValidation: requireAgent, schemaErrorFormatter: readableSchemaErrors };

  app.post('/departments', { schema: { tags, security, body: DepartmentBody }, ...admin }, async (request, reply) => {
    const department = await createDepartment(ctx, { actor: actor(request), name: request.body.name });
    return reply.code(201).send(presentDepartment(department));
  });

  app.get('/departments', { schema: { tags, security, querystring: PageQuery }, ...signedIn }, async (request) => {
    const rows = await listDepartments(ctx, { actor: actor(request), page: readPage(request.query) });
    return rows.map(presentDepartment);
  });

  app.patch('/departments/:id', { schema: { tags, security, params: IdParams, body: DepartmentBody }, ...admin }, async (request) => {
    const id = readId(request.params, 'Department');
    return presentDepartment(await renameDepartment(ctx, { actor: actor(request), id, name: request.body.name }));
  });

  app.delete('/departments/:id', { schema: { tags, security, params: IdParams }, ...admin }, async (request, reply) => {
    await deleteDepartment(ctx, { actor: actor(request), id: readId(request.params, 'Department') });
    return reply.code(204).send();
  });
}
