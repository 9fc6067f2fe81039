/**
 * What every visitor call of the widget API starts with: the widget of the
 * path (404 when unknown), the Origin check against its allowed domains
 * (403), the visitor of the bearer token (401), and the rate limits of the
 * call, per visitor and per address (429).
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Channel, Visitor } from '../../db/schema.js';
import { checkOrigin } from '../../domain/widget/allowedDomains.js';
import { findWidgetChannel, requireVisitor } from '../../domain/widget/visitorAccess.js';
import { bearerToken } from '../authenticate.js';
import type { Limit, RateLimiter } from '../rateLimit.js';

export interface WidgetParams {
  widgetId: string;
}

export interface VisitorCall {
  channel: Channel;
  visitor: Visitor;
}

/** Our own origin (the frame runs there): PUBLIC_URL's, or the Host the request came to. */
function ourOrigin(ctx: AppContext, request: FastifyRequest): string {
  const origin = request.headers.origin;
  if (origin && origin === `${request.protocol}://${request.headers.host ?? ''}`) return origin;
  return ctx.config.publicUrl;
}

export async function widgetOf(ctx: AppContext, request: FastifyRequest<{ Params: WidgetParams }>): Promise<Channel> {
  const channel = await findWidgetChannel(ctx.db, request.params.widgetId);
  checkOrigin(channel, request.headers.origin, ourOrigin(ctx, request));
  return channel;
}

export async function visitorOf(
  ctx: AppContext,
  limiter: RateLimiter,
  request: FastifyRequest<{ Params: WidgetParams }>,
  limits: { visitor: Limit; ip?: Limit },
): Promise<VisitorCall> {
  const channel = await widgetOf(ctx, request);
  if (limits.ip) await limiter.take(limits.ip, request.ip);
  const visitor = await requireVisitor(ctx.db, channel, bearerToken(request));
  await limiter.take(limits.visitor, String(visitor.id));
  return { channel, visitor };
}

/** A JSON body as an object ({} for none or anything else): the domain checks the fields. */
export function bodyObject(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
