/**
 * The widget's server routes under /widget: the frame's HTTP API
 * (/widget/api/<widget_id>/…), the visitor socket (/widget/ws/<widget_id>)
 * uploaded files (/widget/uploads/<name>) and the page of a transcript
 * confirmation link (/widget/transcript/<token>). Every answer of the API is
 * uncacheable. (The loader, frame HTML and assets are registered by
 * assets.ts.)
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { RateLimiter } from '../rateLimit.js';
import { widgetApiRoutes } from './api.js';
import { widgetSocketRoutes } from './socket.js';
import { transcriptConfirmRoutes } from './transcriptConfirm.js';
import { widgetUploadRoutes } from './uploads.js';

export async function widgetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const limiter = new RateLimiter(ctx);
  app.addHook('onClose', () => limiter.close());
  await app.register(
    async (scope) => {
      scope.addHook('onSend', async (request, reply) => {
        if (request.routeOptions.url?.startsWith('/widget/api/')) void reply.header('cache-control', 'no-store');
      });
      await widgetApiRoutes(scope, ctx, limiter);
      await widgetUploadRoutes(scope, ctx, limiter);
      await widgetSocketRoutes(scope, ctx);
      await transcriptConfirmRoutes(scope, ctx, limiter);
    },
    { prefix: '/widget' },
  );
}
