/**
 * Operability: readiness (the database answers and the first account exists),
 * Prometheus metrics and the OpenAPI document.
 * `/metrics` requires `Authorization: Bearer $METRICS_TOKEN` when that is set
 * (compared in constant time; 401 unauthorized otherwise).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { ping } from '../../db/database.js';
import { AppError } from '../../errors/AppError.js';

export async function systemRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => {
    // main.ts binds the port first and creates the first account (its administrator) just after: not ready until then.
    if (ctx.defaultAccountId === 0) throw new AppError('service_unavailable', 'Starting: the first account is not ready yet.');
    try {
      await ping(ctx.db);
    } catch {
      throw new AppError('service_unavailable', 'The database is not reachable.');
    }
    return { status: 'ok' };
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const expected = ctx.config.metricsToken;
    if (expected !== null && !bearerMatches(request, expected)) {
      throw new AppError('unauthorized', 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".');
    }
    const body = await ctx.metrics.registry.metrics();
    return reply.type(ctx.metrics.registry.contentType).send(body);
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

function bearerMatches(request: FastifyRequest, expected: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) return false;
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(match[1]), digest(expected));
}
