/**
 * The signed-in agent's presence and alerts: PUT /me/presence (the app says
 * whether the person is at it: `active` restores the chosen status, `idle`
 * turns an online agent Away), GET /me/presence, GET/PUT /me/notifications
 * (alert preferences), GET /me/guide and POST /me/guide/dismiss (the
 * first-run guide).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../context.js';
import { dismissGuide, firstRunGuide } from '../../../../domain/agents/firstRunGuide.js';
import { markPresence, readPresence, type PresenceView } from '../../../../domain/agents/markPresence.js';
import { getNotificationPrefs, updateNotificationPrefs } from '../../../../domain/agents/updateNotificationPrefs.js';
import { presentAgent } from '../../../../presenters/agent.js';
import { presentGuide } from '../../../../presenters/guide.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { readableSchemaErrors } from '../../../validationMessage.js';
import type { PresenceDto } from '../../../../../protocol/agent.js';

const tags = ['me'];
const security = [{ bearer: [] }];

const PresenceBody = Type.Object(
  {
    state: Type.Union([Type.Literal('active'), Type.Literal('idle')], {
      description:
        '"active": the person is at the app (it opened, or activity after an idle spell): the chosen status comes back. "idle": no activity for the account\'s away_after_idle_minutes: an online agent turns Away.',
    }),
  },
  { additionalProperties: false },
);

const NotificationsBody = Type.Object(
  {
    sound: Type.Optional(Type.Boolean({ description: 'A chime for the chosen events.' })),
    volume: Type.Optional(Type.Integer({ description: 'Chime volume, 0 to 100.' })),
    desktop: Type.Optional(Type.Boolean({ description: 'Desktop notifications when the app is not in front (the browser asks for permission).' })),
    muted: Type.Optional(Type.Boolean({ description: 'Silence every alert, keeping the other choices.' })),
    events: Type.Optional(
      Type.Object(
        {
          new_chat: Type.Optional(Type.Boolean({ description: 'A new chat waits (alerts until someone accepts it).' })),
          new_message: Type.Optional(Type.Boolean({ description: "A visitor's message in one of my chats." })),
          transfer: Type.Optional(Type.Boolean({ description: 'A chat transferred to me.' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'A partial change: only the keys it names.' },
);

function presentPresence(view: PresenceView): PresenceDto {
  return { agent: presentAgent(view.agent), chosen_status: view.chosen_status, away_after_idle_minutes: view.away_after_idle_minutes };
}

export async function mePreferencesRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent } = makeGuards(ctx);
  const agent = { preValidation: requireAgent, schemaErrorFormatter: readableSchemaErrors };

  app.get('/me/presence', { schema: { tags, security, summary: 'Your status, the status you chose, the idle delay' }, ...agent }, async (request) =>
    presentPresence(await readPresence(ctx, { agent: actor(request) })),
  );

  app.put(
    '/me/presence',
    { schema: { tags, security, body: PresenceBody, summary: 'Say whether you are at the app (active or idle)' }, ...agent },
    async (request) => presentPresence(await markPresence(ctx, { agent: actor(request), state: request.body.state })),
  );

  app.get('/me/notifications', { schema: { tags, security, summary: 'Your alert preferences' }, ...agent }, async (request) => {
    const me = actor(request);
    return getNotificationPrefs(ctx, { agentId: me.id, accountId: me.account_id });
  });

  app.put(
    '/me/notifications',
    { schema: { tags, security, body: NotificationsBody, summary: 'Change your alert preferences (partial)' }, ...agent },
    async (request) => {
      const me = actor(request);
      return updateNotificationPrefs(ctx, { agentId: me.id, accountId: me.account_id, changes: request.body });
    },
  );

  app.get('/me/guide', { schema: { tags, security, summary: 'The first-run guide: next steps, each ticked when done' }, ...agent }, async (request) =>
    presentGuide(await firstRunGuide(ctx, { agent: actor(request) })),
  );

  app.post('/me/guide/dismiss', { schema: { tags, security, summary: 'Hide the first-run guide for good (per agent)' }, ...agent }, async (request, reply) => {
    await dismissGuide(ctx, { agent: actor(request) });
    return reply.code(204).send();
  });
}
