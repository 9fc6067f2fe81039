/** GET /api/v1/audit (administrators): the audit log, newest first, paged (docs/DATA.md "Audit log"). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { listAudit } from '../../../../domain/audit/listAudit.js';
import { presentAuditEntry } from '../../../../presenters/audit.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { PageQuery, readPage } from '../../../pagination.js';

export async function auditRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAdmin } = makeGuards(ctx);
  app.get(
    '/audit',
    {
      schema: {
        tags: ['audit'],
        security: [{ bearer: [] }],
        querystring: PageQuery,
        summary: 'Who did what and when, from which address: exports, erasures, settings, channels, agents, password resets (administrators)',
      },
      preValidation: requireAdmin,
    },
    async (request) => (await listAudit(ctx, actor(request).account_id, readPage(request.query))).map(presentAuditEntry),
  );
}
