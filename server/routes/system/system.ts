/**
 * Operability: readiness (the database answers and the first account exists),
 * Prometheus metrics and the OpenAPI document.
 * `/healthz` stays `200 {"status":"ok"}` on a full disk (no room for one more
 * upload under DATA_DIR) and adds `"disk":"full"`: chats, messages and sign-in
 * still work, and a 503 would make an orchestrator restart or drain an
 * instance that a restart cannot fix, taking every chat down with the
 * uploads. A monitor alerts on the field (docs/SECURITY.md §8).
 * `/metrics` requires `Authorization: Bearer $METRICS_TOKEN` when that is set
 * (compared in constant time; 401 unauthorized otherwise).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { ping } from '../../db/database.js';
import { uploadsDiskFull } from '../../domain/uploads/diskSpace.js';
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
    return (await uploadsDiskFull(ctx)) ? { status: 'ok', disk: 'full' } : { status: 'ok' };
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
