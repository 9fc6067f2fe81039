/**
 * GET /me, PATCH /me (own name, phone, photo link, language), POST /me/photo (upload a
 * photo: the raw image as the body, its type as Content-Type), PUT /me/status,
 * PUT /me/password, GET/POST /me/email (its own address, confirmed by a link),
 * GET/POST /me/first-run (the first sign-in with the generated password),
 * GET /me/channels, GET /account (the company's name): the signed-in agent, its profile, its availability, its
 * own password and address and the channels whose chats it sees.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../context.js';
import type { Agent } from '../../../../db/schema.js';
import { shownAccountName, storedAccountName } from '../../../../domain/accounts/accountName.js';
import { pendingEmailChange, requestOwnEmailChange } from '../../../../domain/agents/emailChanges.js';
import { completeFirstRun, firstRunState } from '../../../../domain/agents/firstRun.js';
import { AGENT_PHOTO_MAX_BYTES, setAgentPhoto } from '../../../../domain/agents/setAgentPhoto.js';
import { updateProfile } from '../../../../domain/agents/updateProfile.js';
import { setAgentStatus } from '../../../../domain/agents/setAgentStatus.js';
import { listVisibleChannels } from '../../../../domain/channels/visibleChannels.js';
import { changeOwnPassword } from '../../../../domain/auth/changeOwnPassword.js';
import { presentAgent } from '../../../../presenters/agent.js';
import { presentChannelRef } from '../../../../presenters/channel.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { readBodyAsBytes } from '../../../rawBody.js';
import { readableSchemaErrors } from '../../../validationMessage.js';
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
    language: Type.Optional(
      Type.Union([
        Type.String({
          maxLength: 35,
          description:
            "The agent app's language, a BCP 47 tag it speaks (en, ru, es, de, fr, pt, tr, uk, ar; pt-BR is stored as pt); null or empty: follow the browser.",
        }),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);

const EmailBody = Type.Object(
  { email: Type.String({ maxLength: 320, description: 'Your new e-mail address (sign-in name); stored lower-cased, unique (409 email_taken).' }) },
  { additionalProperties: false },
);

const EmailStateSchema = Type.Object({
  email: Type.String({ description: 'Your e-mail address now.' }),
  pending_email: Type.Union([Type.String(), Type.Null()], {
    description:
      'The new address waiting for its link to be opened (24 hours), or null. While mail is not sent (no SMTP_URL), a change is made at once and this stays null.',
  }),
  expires_at: Type.Union([Type.Number(), Type.Null()], { description: 'When the link mailed to pending_email stops working (epoch ms).' }),
  mail_sent: Type.Boolean({ description: 'Whether this server sends mail (SMTP_URL set): a change then waits for the link; else it is made at once.' }),
});

const FirstRunSchema = Type.Object({
  required: Type.Boolean({ description: 'Signed in with the password generated at the first start: the first-run form comes before anything else.' }),
  email: Type.String(),
  account_name: Type.String({ description: 'The company name so far ("" while not set).' }),
});

const FirstRunBody = Type.Object(
  {
    current_password: Type.String({ maxLength: 1024, description: 'The password generated at the first start (printed in the log).' }),
    email: Type.String({ maxLength: 320, description: 'Your real e-mail address: your sign-in name from now on.' }),
    account_name: Type.String({ maxLength: 1000, description: "Your company's name, 1 to 100 characters." }),
    new_password: Type.String({ maxLength: 1024, description: 'Your own password, at least 8 characters.' }),
  },
  { additionalProperties: true },
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
    readBodyAsBytes(scope, AGENT_PHOTO_MAX_BYTES, 'The photo is too large; photos of up to 2 MB can be used.');
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

  // Every agent's view of its account: the company's name for the app's header (domain/accounts/accountName.ts).
  app.get(
    '/account',
    {
      schema: {
        tags: ['me'],
        security: [{ bearer: [] }],
        summary: "Your account's name → {name, shown_name}",
        response: {
          200: Type.Object({
            name: Type.String({ description: 'The company name an administrator set ("" while not set).' }),
            shown_name: Type.String({ description: 'The name as screens and mails show it: the company name, or "Parley" while it is not set.' }),
          }),
        },
      },
      preValidation: requireAgent,
    },
    async (request) => {
      const name = await storedAccountName(ctx.db, actor(request).account_id);
      return { name, shown_name: shownAccountName(name) };
    },
  );

  const emailState = async (agent: Agent) => {
    const pending = await pendingEmailChange(ctx.db, agent.id, ctx.clock());
    return {
      email: agent.email,
      pending_email: pending?.pending_email ?? null,
      expires_at: pending?.expires_at ?? null,
      mail_sent: ctx.config.smtpUrl !== null,
    };
  };

  app.get(
    '/me/email',
    { schema: { tags: ['me'], security: [{ bearer: [] }], response: { 200: EmailStateSchema } }, preValidation: requireAgent },
    async (request) => emailState(actor(request)),
  );

  // Your own new address: while mail is sent, a link goes to it and it changes when the link is opened; else at once.
  app.post(
    '/me/email',
    {
      schema: {
        tags: ['me'],
        security: [{ bearer: [] }],
        summary: 'Change your own e-mail → your e-mail state: confirmed by a link mailed to the new address (when mail is sent), else at once',
        body: EmailBody,
        response: { 200: EmailStateSchema },
      },
      preValidation: requireAgent,
      schemaErrorFormatter: readableSchemaErrors,
    },
    async (request) => {
      const result = await requestOwnEmailChange(ctx, { agent: actor(request), email: request.body.email });
      return emailState(result.changed ? result.agent : actor(request));
    },
  );

  // The first sign-in with the generated password (domain/agents/firstRun.ts): allowed to the limited session.
  app.get(
    '/me/first-run',
    { schema: { tags: ['me'], security: [{ bearer: [] }], response: { 200: FirstRunSchema } }, preValidation: requireSession },
    async (request) => firstRunState(ctx, actor(request)),
  );

  app.post(
    '/me/first-run',
    {
      schema: {
        tags: ['me'],
        security: [{ bearer: [] }],
        summary: "The first sign-in: your e-mail, your company's name and your own password, together → you",
        body: FirstRunBody,
      },
      preValidation: requireSession,
      schemaErrorFormatter: readableSchemaErrors,
    },
    async (request) =>
      presentAgent(
        await completeFirstRun(ctx, {
          agent: actor(request),
          token: request.authToken ?? '',
          currentPassword: request.body.current_password,
          email: request.body.email,
          accountName: request.body.account_name,
          newPassword: request.body.new_password,
          ip: request.ip,
        }),
      ),
  );

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
