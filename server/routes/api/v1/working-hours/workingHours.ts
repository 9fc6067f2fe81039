/**
 * Working hours for chat (docs/ROUTING.md): GET /working-hours shows the
 * account's and every department's hours, whether chat is open now, when that
 * changes and the next seven days; an admin sets a
 * department's own hours with PUT /departments/:id/working-hours (the
 * account's are the `chat_hours` key of PUT /settings). Both are admin-only.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { getWorkingHours } from '../../../../domain/workingHours/getWorkingHours.js';
import { hoursStatus } from '../../../../domain/workingHours/hours.js';
import { setDepartmentHours } from '../../../../domain/workingHours/setDepartmentHours.js';
import { presentDepartmentHours, presentWorkingHours } from '../../../../presenters/workingHours.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { IdParams, readId } from '../../../params.js';
import { readableSchemaErrors } from '../../../validationMessage.js';
import { pickHours } from '../settings/settings.js';
import { ChatHoursBody } from '../settings/schema.js';

const tags = ['working hours'];
const security = [{ bearer: [] }];

const DepartmentHoursBody = Type.Object(
  {
    hours: Type.Union([ChatHoursBody, Type.Null()], {
      description: "The department's own hours, {timezone, weekly, exceptions} (partial: the keys named change); null = follow the account's.",
    }),
  },
  { additionalProperties: true },
);

export async function workingHoursRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAdmin } = makeGuards(ctx);
  const admin = { preValidation: requireAdmin, schemaErrorFormatter: readableSchemaErrors };

  app.get('/working-hours', { schema: { tags, security }, ...admin }, async (request) => {
    const view = await getWorkingHours(ctx, { actor: actor(request) });
    return presentWorkingHours(view, (hours) => hoursStatus(hours, view.now));
  });

  app.put('/departments/:id/working-hours', { schema: { tags, security, params: IdParams, body: DepartmentHoursBody }, ...admin }, async (request) => {
    const id = readId(request.params, 'Department');
    const d = await setDepartmentHours(ctx, { actor: actor(request), id, hours: pickHours(request.body.hours) ?? null });
    return presentDepartmentHours(d, d.account, (hours) => hoursStatus(hours, d.now));
  });
}
