/** Operability: readiness, Prometheus metrics and the OpenAPI document. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ping } from '../../db/database.js';
import { AppError } from '../../errors/AppError.js';

export async function systemRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => {
    try {
      await ping(ctx.db);
    } catch {
      throw new AppError('service_unavailable', 'The database is not reachable.');
    }
    return { status: 'ok' };
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const body = await ctx.metrics.registry.metrics();
    return reply.type(ctx.metrics.registry.contentType).send(body);
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
