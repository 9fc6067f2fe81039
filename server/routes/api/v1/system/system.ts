/**
 * Admin → System (GET /api/v1/system, administrators): how this instance
 * reads its clients' addresses — TRUST_PROXY, and the addresses that sent
 * X-Forwarded-For without being listed there (routes/untrustedProxy.ts;
 * docs/SECURITY.md §6).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../context.js';
import { presentSystem } from '../../../../presenters/system.js';
import { makeGuards } from '../../../authenticate.js';
import { untrustedProxies } from '../../../untrustedProxy.js';

export async function systemApiRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { requireAdmin } = makeGuards(ctx);
  app.get(
    '/system',
    {
      schema: {
        tags: ['system'],
        security: [{ bearer: [] }],
        summary: 'How this instance reads client addresses: TRUST_PROXY and the untrusted proxies it saw (administrators)',
      },
      preValidation: requireAdmin,
    },
    async () => presentSystem(ctx.config.trustProxy, untrustedProxies(ctx)),
  );
}
