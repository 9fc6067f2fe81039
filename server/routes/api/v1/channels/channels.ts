/** /api/v1/channels (admin): add, list, read, change and remove chat_api and widget channels. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { createChannel } from '../../../../domain/channels/createChannel.js';
import { deleteChannel } from '../../../../domain/channels/deleteChannel.js';
import { getChannel, listChannels, type ChannelWithAgents } from '../../../../domain/channels/listChannels.js';
import { updateChannel } from '../../../../domain/channels/updateChannel.js';
import { pick } from '../../../../lib/pick.js';
import { presentChannel, type ChannelDto } from '../../../../presenters/channel.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { PageQuery, readPage } from '../../../pagination.js';
import { IdParams, readId } from '../../../params.js';
import { readableSchemaErrors } from '../../../validationMessage.js';
import { CreateChannelBody, UpdateChannelBody } from './schema.js';

const tags = ['channels'];

// Only the documented fields reach the domain; unknown ones are ignored.
const CREATE_FIELDS = [
  'name',
  'webhook_url',
  'chunked',
  'agent_ids',
  'color',
  'allowed_domains',
  'identity_verification',
  'hide_launcher',
  'enabled',
  'appearance',
] as const;
const UPDATE_FIELDS = [...CREATE_FIELDS, 'rotate_secret', 'rotate_identity_secret'] as const;
const security = [{ bearer: [] }];

export async function channelsRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAdmin } = makeGuards(ctx);
  // Who may call is checked before the input (an agent gets 403, not 400, for a bad body);
  // validation failures answer one readable sentence (see validationMessage.ts).
  const admin = { preValidation: requireAdmin, schemaErrorFormatter: readableSchemaErrors };
  const present = ({ channel, agentIds }: ChannelWithAgents): ChannelDto => presentChannel(channel, agentIds, ctx.config.publicUrl);

  app.post('/channels', { schema: { tags, security, body: CreateChannelBody }, ...admin }, async (request, reply) => {
    const created = await createChannel(ctx, { actor: actor(request), type: request.body.type, fields: pick(request.body, CREATE_FIELDS) });
    return reply.code(201).send(present(created));
  });

  app.get('/channels', { schema: { tags, security, querystring: PageQuery }, ...admin }, async (request) => {
    const rows = await listChannels(ctx, { actor: actor(request), page: readPage(request.query) });
    return rows.map(present);
  });

  app.get('/channels/:id', { schema: { tags, security, params: IdParams }, ...admin }, async (request) =>
    present(await getChannel(ctx, { actor: actor(request), id: readId(request.params, 'Channel') })),
  );

  app.patch('/channels/:id', { schema: { tags, security, params: IdParams, body: UpdateChannelBody }, ...admin }, async (request) => {
    const id = readId(request.params, 'Channel');
    return present(await updateChannel(ctx, { actor: actor(request), id, fields: pick(request.body, UPDATE_FIELDS) }));
  });

  app.delete('/channels/:id', { schema: { tags, security, params: IdParams }, ...admin }, async (request, reply) => {
    await deleteChannel(ctx, { actor: actor(request), id: readId(request.params, 'Channel') });
    return reply.code(204).send();
  });
}
