/**
 * Admin → System (GET /api/v1/system, administrators): how this instance
 * reads its clients' addresses — TRUST_PROXY, and the addresses that sent
 * X-Forwarded-For without being listed there (routes/untrustedProxy.ts;
 * docs/SECURITY.md §6); and the scheduled backups: the last one, its result,
 * and when the next falls due (backup/runs.ts, docs/DATA.md).
 */
import type { FastifyInstance } from 'fastify';
import { backupSchedule } from '../../../../backup/runs.js';
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
        summary: 'How this instance reads client addresses (TRUST_PROXY, the untrusted proxies it saw) and the scheduled backups (administrators)',
      },
      preValidation: requireAdmin,
    },
    async () => presentSystem(ctx.config.trustProxy, untrustedProxies(ctx), await backupSchedule(ctx)),
  );
}
