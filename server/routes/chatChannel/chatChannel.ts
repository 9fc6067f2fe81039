/**
 * The chat channel (spec A, docs/CHAT-CHANNEL.md) under /wh:
 *   GET  /wh/<random>/<CHANNEL_PUBLIC_ID>/status → text/plain 1 | 0
 *   POST /wh/<random>/<CHANNEL_PUBLIC_ID>        → {"result":"ok"}
 * Bodies are parsed as JSON whatever their Content-Type (even a malformed one). Errors here carry
 * numeric codes, as the spec's error object does: {"error":{"code":<n>,"message"}}.
 * Guessing addresses is throttled: after GUESS_LIMIT 404s from one client
 * address within a minute, every /wh request of that address is 429 (with
 * Retry-After) until the minute that began with its first 404 is over.
 * Channels come from a per-process cache (domain/chatChannel/findChannel.ts):
 * a message for a channel deleted on another instance within its 1 s fails its
 * write (a foreign key) and is answered the 404 of a missing channel, not a 500.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { findChatChannel, isChatChannelGone } from '../../domain/chatChannel/findChannel.js';
import { parseInbound } from '../../domain/chatChannel/parseInbound.js';
import { receiveInbound } from '../../domain/chatChannel/receiveInbound.js';
import { isChannelAvailable } from '../../domain/channels/access.js';
import { AppError } from '../../errors/AppError.js';
import { classify, logServerError } from '../../errors/handler.js';
import { errorRegistry } from '../../errors/registry.js';
import { RateLimiter, type Limit } from '../rateLimit.js';
import { Accepted, ChatChannelError, InboundBody } from './schema.js';

interface Params {
  secret: string;
  publicId: string;
}

const notFound = (): AppError => new AppError('not_found', 'No channel at this address.');

/**
 * 404s one client address may collect per minute before /wh refuses its guesses (a real integration almost never
 * sees one). A request naming an existing channel with its right random string is never refused (rightChannel).
 */
export const GUESS_LIMIT: Limit = {
  name: 'wh-404-ip',
  capacity: 20,
  windowMs: 60_000,
  message: 'Too many requests to unknown chat-channel addresses from this address; wait until Retry-After has passed.',
};

/** 404s one CHANNEL_PUBLIC_ID may collect per minute, from any addresses (a random string guessed from many). */
export const GUESS_ID_LIMIT: Limit = {
  name: 'wh-404-id',
  capacity: 20,
  windowMs: 60_000,
  message: 'Too many requests to this chat channel with a wrong random string; wait until Retry-After has passed.',
};

/** A CHANNEL_PUBLIC_ID as a limiter key: bounded, since it comes from anyone's URL. */
const idKey = (publicId: string): string => publicId.slice(0, 64);

/** The random string and CHANNEL_PUBLIC_ID a /wh path names (decoded as the router decodes them, NULs dropped), or null. */
function channelPathOf(url: string): Params | null {
  const m = /^\/wh\/([^/?#]+)\/([^/?#]+)(?:\/status)?\/?(?:[?#].*)?$/.exec(url);
  if (!m) return null;
  try {
    // NULs dropped, as from every path parameter (app.ts): PostgreSQL cannot compare a text holding one.
    const decoded = (part: string) => decodeURIComponent(part).split('\u0000').join('');
    return { secret: decoded(m[1]), publicId: decoded(m[2]) };
  } catch {
    return null;
  }
}

export async function chatChannelRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const limiter = new RateLimiter(ctx);
  app.addHook('onClose', () => limiter.close());
  /**
   * 429 for a client address or a CHANNEL_PUBLIC_ID that collected too many 404s, unless the request names an
   * existing channel with its right random string: one stale channel in a customer system, or anyone behind the
   * same proxy, must never cut off a live channel (#32 item 3). The channel is read through its 1 s cache.
   */
  const assertMayGuess = async (url: string, ip: string): Promise<void> => {
    const target = channelPathOf(url);
    if (target && (await findChatChannel(ctx, target.secret, target.publicId))) return;
    await limiter.assertOpen(GUESS_LIMIT, ip);
    if (target) await limiter.assertOpen(GUESS_ID_LIMIT, idKey(target.publicId));
  };
  const recordGuess = async (url: string, ip: string): Promise<void> => {
    await limiter.recordFailure(GUESS_LIMIT, ip);
    const target = channelPathOf(url);
    if (target) await limiter.recordFailure(GUESS_ID_LIMIT, idKey(target.publicId));
  };
  await app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
      scope.addHook('onRequest', async (request) => {
        // The body is read as JSON whatever its Content-Type says, so the header is not looked at: one Fastify
        // cannot parse (`;;;`, an empty value) would otherwise be refused with 415 before the '*' parser runs.
        if (request.headers['content-type'] !== undefined) request.headers['content-type'] = 'application/json';
        await assertMayGuess(request.url, request.ip);
      });
      scope.setErrorHandler(async (err, request, reply) => {
        const { code, message, headers } = classify(err);
        const entry = errorRegistry[code];
        if (entry.status >= 500) logServerError(request, err, code, 'chat channel request failed');
        if (entry.status === 404) await recordGuess(request.url, request.ip);
        if (headers) void reply.headers(headers);
        return reply.code(entry.status).send({ error: { code: entry.number, message } });
      });
      const noRoute = async (request: FastifyRequest, reply: FastifyReply) => {
        await recordGuess(request.url, request.ip);
        return reply.code(404).send({ error: { code: errorRegistry.route_not_found.number, message: 'No such chat channel route.' } });
      };
      // Every other path under /wh is answered here (not by the agent app's catch-all), in this shape, and counted.
      scope.all('/*', { schema: { hide: true } }, noRoute);
      scope.setNotFoundHandler(async (request, reply) => {
        // onRequest hooks do not run for unmatched routes: check here too.
        await assertMayGuess(request.url, request.ip);
        return noRoute(request, reply);
      });

      scope.get<{ Params: Params }>(
        '/:secret/:publicId/status',
        {
          schema: {
            tags: ['chat channel'],
            summary: 'Channel status: text/plain 1 (an agent of the channel is online) or 0; 404 for an unknown channel or random string',
          },
        },
        async (request, reply) => {
          const channel = await findChatChannel(ctx, request.params.secret, request.params.publicId);
          if (!channel) throw notFound();
          const available = await isChannelAvailable(ctx.db, channel.account_id, channel.id, ctx.clock());
          return reply.type('text/plain; charset=utf-8').send(available ? '1' : '0');
        },
      );

      scope.post<{ Params: Params }>(
        '/:secret/:publicId',
        {
          schema: {
            tags: ['chat channel'],
            summary: "A user's message, media, location or typing, from the customer system",
            body: InboundBody,
            response: { 200: Accepted, 400: ChatChannelError, 404: ChatChannelError },
          },
          // The schema documents the body (/openapi.json); parseInbound applies the rules, with numeric codes.
          validatorCompiler: () => () => true,
        },
        async (request) => {
          const channel = await findChatChannel(ctx, request.params.secret, request.params.publicId);
          if (!channel) throw notFound();
          const inbound = parseInbound(request.body ?? '');
          const outcome = await receiveInbound(ctx, { channel, req: inbound }).catch(async (err: unknown) => {
            // A 500 for a channel gone meanwhile (its rows went with it) is a 404; a 503 (store down) is not looked into.
            if (classify(err).code === 'internal_error' && (await isChatChannelGone(ctx, channel).catch(() => false))) throw notFound();
            throw err;
          });
          request.log.debug({ channel: channel.public_id, outcome }, 'chat channel message');
          return { result: 'ok' as const };
        },
      );
    },
    { prefix: '/wh' },
  );
}
