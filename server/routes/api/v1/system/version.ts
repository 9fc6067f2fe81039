/**
 * GET /api/v1/version (any signed-in agent): this Parley's version and the
 * schema's migration level, for upgrades (CHANGELOG.md, docs/DATA.md) and for
 * a bug report; Admin → System shows it.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../context.js';
import { parleyVersion } from '../../../../backup/manifest.js';
import { schemaLevel } from '../../../../db/schemaLevel.js';
import { makeGuards } from '../../../authenticate.js';

export async function versionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { requireAgent } = makeGuards(ctx);
  app.get(
    '/version',
    {
      schema: { tags: ['system'], security: [{ bearer: [] }], summary: "This Parley's version and the schema's migration level" },
      preValidation: requireAgent,
    },
    async () => {
      const level = await schemaLevel(ctx.db);
      return { version: parleyVersion(), migration: level.latest, migrations_applied: level.applied, store: ctx.store.dialect };
    },
  );
}
