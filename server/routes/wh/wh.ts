/**
 * The chat channel (spec A, CONTRACT §2) under /wh:
 *   GET  /wh/<random>/<CHANNEL_PUBLIC_ID>/status → text/plain 1 | 0
 *   POST /wh/<random>/<CHANNEL_PUBLIC_ID>        → {"result":"ok"}
 * Bodies are parsed as JSON whatever their Content-Type. Errors here carry
 * numeric codes, as the spec's error object does: {"error":{"code":<n>,"message"}}.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { findChatApiChannel } from '../../domain/chatChannel/findChannel.js';
import { parseInbound } from '../../domain/chatChannel/parseInbound.js';
import { receiveInbound } from '../../domain/chatChannel/receiveInbound.js';
import { isChannelAvailable } from '../../domain/channels/access.js';
import { AppError } from '../../errors/AppError.js';
import { classify } from '../../errors/handler.js';
import { errorRegistry } from '../../errors/registry.js';

interface Params {
  secret: string;
  publicId: string;
}

const notFound = (): AppError => new AppError('not_found', 'No channel at this address.');

export async function chatChannelRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
      scope.setErrorHandler((err, request, reply) => {
        const { code, message } = classify(err);
        const entry = errorRegistry[code];
        if (entry.status >= 500) request.log.error({ err, reqId: request.id }, 'chat channel request failed');
        return reply.code(entry.status).send({ error: { code: entry.number, message } });
      });
      scope.setNotFoundHandler((_request, reply) =>
        reply.code(404).send({ error: { code: errorRegistry.route_not_found.number, message: 'No such chat channel route.' } }),
      );

      scope.get<{ Params: Params }>('/:secret/:publicId/status', { schema: { tags: ['chat channel'] } }, async (request, reply) => {
        const channel = await findChatApiChannel(ctx.db, request.params.secret, request.params.publicId);
        if (!channel) throw notFound();
        const available = await isChannelAvailable(ctx.db, channel.account_id, channel.id);
        return reply.type('text/plain; charset=utf-8').send(available ? '1' : '0');
      });

      scope.post<{ Params: Params }>('/:secret/:publicId', { schema: { tags: ['chat channel'] } }, async (request) => {
        const channel = await findChatApiChannel(ctx.db, request.params.secret, request.params.publicId);
        if (!channel) throw notFound();
        const inbound = parseInbound(request.body ?? '');
        const outcome = await receiveInbound(ctx, channel, inbound);
        request.log.debug({ channel: channel.public_id, outcome }, 'chat channel message');
        return { result: 'ok' };
      });
    },
    { prefix: '/wh' },
  );
}
