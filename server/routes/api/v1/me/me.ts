/**
 * GET /me, PATCH /me (own name, phone, photo link), POST /me/photo (upload a
 * photo: the raw image as the body, its type as Content-Type), PUT /me/status,
 * PUT /me/password, GET /me/channels: the signed-in agent, its profile, its
 * availability, its own password and the channels whose chats it sees.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../context.js';
import { AGENT_PHOTO_MAX_BYTES, setAgentPhoto } from '../../../../domain/agents/setAgentPhoto.js';
import { updateProfile } from '../../../../domain/agents/updateProfile.js';
import { setAgentStatus } from '../../../../domain/agents/setAgentStatus.js';
import { listVisibleChannels } from '../../../../domain/channels/visibleChannels.js';
import { changeOwnPassword } from '../../../../domain/auth/changeOwnPassword.js';
import { AppError } from '../../../../errors/AppError.js';
import { classify } from '../../../../errors/handler.js';
import { presentAgent } from '../../../../presenters/agent.js';
import { presentChannelRef } from '../../../../presenters/channel.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { PasswordBody } from '../auth/schema.js';

const StatusBody = Type.Object({
  status: Type.Union([Type.Literal('online'), Type.Literal('away'), Type.Literal('offline')]),
});

const ChannelRefSchema = Type.Object({
  id: Type.Integer(),
  type: Type.Union([Type.Literal('chat_api'), Type.Literal('widget')]),
  name: Type.String(),
});

const ProfileBody = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Shown to visitors and other agents; 1 to 200 characters.' })),
    phone: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    photo_url: Type.Optional(Type.Union([Type.String({ description: 'An http(s) link to the photo; null or empty clears it.' }), Type.Null()])),
  },
  { additionalProperties: false },
);

export async function meRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent, requireSession } = makeGuards(ctx);

  app.get('/me', { schema: { tags: ['me'], security: [{ bearer: [] }] }, preValidation: requireAgent }, async (request) => presentAgent(actor(request)));

  // Any agent's list of the channels it sees (the admin-only GET /channels shows them all, with their secrets).
  app.get(
    '/me/channels',
    {
      schema: {
        tags: ['me'],
        security: [{ bearer: [] }],
        summary: 'The channels whose chats you see → [{id, type, name}], by name',
        description:
          'The same rule as the chat lists, the search and the stream: the channels you are assigned to and those assigned to nobody; every channel of the account for an administrator. Use the ids as `channel_id` of GET /chats/search.',
        response: { 200: Type.Array(ChannelRefSchema) },
      },
      preValidation: requireAgent,
    },
    async (request) => (await listVisibleChannels(ctx, { actor: actor(request) })).map(presentChannelRef),
  );

  app.patch('/me', { schema: { tags: ['me'], security: [{ bearer: [] }], body: ProfileBody }, preValidation: requireAgent }, async (request) => {
    const me = actor(request);
    return presentAgent(await updateProfile(ctx, { agentId: me.id, accountId: me.account_id, changes: request.body }));
  });

  // The image itself is the body (as the widget's uploads), so this route reads any Content-Type as bytes.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: AGENT_PHOTO_MAX_BYTES }, (_req, body, done) => done(null, body));
    scope.setErrorHandler((err) => {
      // The parent handler answers; only the sentence is made for the person.
      if (classify(err).code === 'payload_too_large') throw new AppError('payload_too_large', 'The photo is too large; photos of up to 2 MB can be used.');
      throw err;
    });
    scope.post(
      '/me/photo',
      {
        bodyLimit: AGENT_PHOTO_MAX_BYTES,
        schema: {
          tags: ['me'],
          security: [{ bearer: [] }],
          summary: 'Upload your photo: the PNG, JPEG, GIF or WebP image as the body (up to 2 MB), its type as Content-Type → the agent, photo_url set',
        },
        preValidation: requireAgent,
      },
      async (request) => {
        const data = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return presentAgent(await setAgentPhoto(ctx, { agent: actor(request), contentType: request.headers['content-type'], data }));
      },
    );
  });

  app.put('/me/status', { schema: { tags: ['me'], security: [{ bearer: [] }], body: StatusBody }, preValidation: requireAgent }, async (request) => {
    const me = actor(request);
    const agent = await setAgentStatus(ctx, { agentId: me.id, accountId: me.account_id, status: request.body.status, chosen: true });
    return presentAgent(agent);
  });

  // 204: the session that asked stays signed in; every other session of the person ends.
  // The one call (with signing out) a session opened with a one-time password may make.
  app.put(
    '/me/password',
    { schema: { tags: ['me'], security: [{ bearer: [] }], body: PasswordBody }, preValidation: requireSession },
    async (request, reply) => {
      await changeOwnPassword(ctx, {
        agent: actor(request),
        token: request.authToken ?? '',
        currentPassword: request.body.current_password,
        newPassword: request.body.new_password,
        ip: request.ip,
      });
      return reply.code(204).send();
    },
  );
}
