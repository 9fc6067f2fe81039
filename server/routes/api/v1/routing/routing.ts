/**
 * Assignment (docs/ROUTING.md): GET/PUT /routing (admin) read and change the
 * account's mode, offer timeout and department wait, the departments' own
 * modes and the agents' chat limits; POST /chats/:id/decline lets the agent a
 * waiting chat is offered to pass it to the next agent at once.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { MAX_ID } from '../../../../lib/ids.js';
import { declineOffer } from '../../../../domain/routing/declineOffer.js';
import { getRouting, updateRouting } from '../../../../domain/routing/routingSettings.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { IdParams, readId } from '../../../params.js';
import { readableSchemaErrors } from '../../../validationMessage.js';

const tags = ['routing'];
const security = [{ bearer: [] }];
const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });

const RoutingBody = Type.Object(
  {
    mode: Type.Optional(Type.String({ maxLength: 40, description: 'The account\'s mode: "manual", "round_robin" or "least_busy".' })),
    offer_timeout_seconds: Type.Optional(Type.Integer({ description: 'Seconds an agent has to accept an offered chat before it goes to the next (5–600).' })),
    everyone_after_seconds: Type.Optional(
      Type.Union([Type.Integer(), Type.Null()], { description: "Seconds a department's chat is offered to its agents only; null = never to everyone." }),
    ),
    departments: Type.Optional(
      Type.Array(
        Type.Object({
          id: Id,
          mode: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
          names: Type.Optional(Type.Record(Type.String({ maxLength: 10 }), Type.String({ maxLength: 200 }), { maxProperties: 20 })),
        }),
        { maxItems: 1000, description: "Departments' own modes (null = the account's) and names in the widget's languages ({} = none)." },
      ),
    ),
    widgets: Type.Optional(
      Type.Array(Type.Object({ id: Id, department_choice: Type.String({ maxLength: 40 }) }), {
        maxItems: 1000,
        description: 'Widgets\' department choice before the first message: "off", "optional" or "required".',
      }),
    ),
    agents: Type.Optional(
      Type.Array(Type.Object({ id: Id, max_chats: Type.Union([Type.Integer(), Type.Null()]) }), {
        maxItems: 1000,
        description: "Agents' concurrent-chat limits; null = no limit.",
      }),
    ),
  },
  { additionalProperties: true },
);

export async function routingRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAdmin, requireAgent } = makeGuards(ctx);
  const admin = { preValidation: requireAdmin, schemaErrorFormatter: readableSchemaErrors };

  app.get('/routing', { schema: { tags, security }, ...admin }, async (request) => getRouting(ctx, { actor: actor(request) }));

  app.put('/routing', { schema: { tags, security, body: RoutingBody }, ...admin }, async (request) =>
    updateRouting(ctx, { actor: actor(request), changes: request.body }),
  );

  app.post('/chats/:id/decline', { schema: { tags, security, params: IdParams }, preValidation: requireAgent }, async (request) => {
    await declineOffer(ctx, { actor: actor(request), chatId: readId(request.params, 'Chat') });
    return { declined: true };
  });
}
