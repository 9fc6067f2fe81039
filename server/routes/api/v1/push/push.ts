/**
 * Web Push (docs/NOTIFICATIONS.md): GET /push/vapid-public-key (the key the
 * app subscribes with), POST/DELETE/GET /me/push-subscriptions (the browsers
 * the signed-in agent is notified on: "Notify me on this device", Profile's
 * devices), DELETE /me/push-subscriptions/:id (a device removed from
 * Profile), PUT /me/tabs/:tab (whether one of its agent-app tabs is visible:
 * nothing is pushed while one is).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../context.js';
import { notFound } from '../../../../errors/AppError.js';
import { listSubscriptions, markTab, registerSubscription, removeSubscription } from '../../../../push/subscriptions.js';
import { vapidKeys } from '../../../../push/vapid.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { IdParams, readId } from '../../../params.js';
import { readableSchemaErrors } from '../../../validationMessage.js';

const tags = ['push'];
const security = [{ bearer: [] }];

const SubscriptionBody = Type.Object(
  {
    endpoint: Type.String({ description: "The push service's URL for this browser (PushSubscription.endpoint), https." }),
    keys: Type.Object(
      {
        p256dh: Type.String({ description: "The browser's P-256 public key, base64url (65 bytes)." }),
        auth: Type.String({ description: 'The auth secret, base64url (16 bytes).' }),
      },
      { additionalProperties: false },
    ),
    expirationTime: Type.Optional(Type.Union([Type.Null(), Type.Number()], { description: 'Ignored (PushSubscription.toJSON() has it).' })),
  },
  { additionalProperties: false, description: "The browser's PushSubscription.toJSON()." },
);

const EndpointBody = Type.Object({ endpoint: Type.String() }, { additionalProperties: false });
const TabParams = Type.Object({ tab: Type.String({ maxLength: 64 }) });
const TabBody = Type.Object(
  { visible: Type.Boolean({ description: 'Whether the tab is visible now (document.visibilityState).' }) },
  { additionalProperties: false },
);

export async function pushRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent } = makeGuards(ctx);
  const agent = { preValidation: requireAgent, schemaErrorFormatter: readableSchemaErrors };

  app.get('/push/vapid-public-key', { schema: { tags, security, summary: "The VAPID public key (the app's applicationServerKey)" }, ...agent }, async () => ({
    public_key: (await vapidKeys(ctx.db, ctx.clock())).publicKey,
  }));

  app.get('/me/push-subscriptions', { schema: { tags, security, summary: 'The devices you are notified on' }, ...agent }, async (request) => ({
    subscriptions: await listSubscriptions(ctx, actor(request)),
  }));

  app.post(
    '/me/push-subscriptions',
    { schema: { tags, security, body: SubscriptionBody, summary: 'Notify me on this device: register a push subscription' }, ...agent },
    async (request, reply) => {
      const result = await registerSubscription(ctx, { agent: actor(request), body: request.body, userAgent: request.headers['user-agent'] ?? null });
      return reply.code(result.created ? 201 : 200).send(result.subscription);
    },
  );

  app.delete(
    '/me/push-subscriptions',
    { schema: { tags, security, body: EndpointBody, summary: 'Stop notifying this device (by its endpoint)' }, ...agent },
    async (request, reply) => {
      if (!(await removeSubscription(ctx, { agent: actor(request), endpoint: request.body.endpoint }))) throw notFound('The push subscription');
      return reply.code(204).send();
    },
  );

  app.delete(
    '/me/push-subscriptions/:id',
    { schema: { tags, security, params: IdParams, summary: 'Remove one of your devices' }, ...agent },
    async (request, reply) => {
      if (!(await removeSubscription(ctx, { agent: actor(request), id: readId(request.params, 'Push subscription') }))) throw notFound('The push subscription');
      return reply.code(204).send();
    },
  );

  app.put(
    '/me/tabs/:tab',
    { schema: { tags, security, params: TabParams, body: TabBody, summary: 'Say whether this agent-app tab is visible' }, ...agent },
    async (request, reply) => {
      await markTab(ctx, { agent: actor(request), tab: request.params.tab, visible: request.body.visible });
      return reply.code(204).send();
    },
  );
}
