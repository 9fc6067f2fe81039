/**
 * GET /api/v1/export (administrators): the whole account as NDJSON, one JSON
 * object per line with a `type`, streamed as it is read (domain/export/accountRows.ts,
 * presenters/export.ts): the memory it takes does not grow with the account.
 * The last line is `{"type":"end","lines":N}`, so a reader knows the file is
 * whole. docs/DATA.md "Export".
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../context.js';
import { accountRows } from '../../../../domain/export/accountRows.js';
import { presentExportLine } from '../../../../presenters/export.js';
import { actor, makeGuards } from '../../../authenticate.js';

/** Lines joined into chunks of about this many bytes: one write per chunk, not per row. */
const CHUNK_BYTES = 64 * 1024;

async function* ndjson(ctx: AppContext, accountId: number): AsyncGenerator<string> {
  let chunk = '';
  let lines = 0;
  for await (const item of accountRows(ctx.db, accountId)) {
    chunk += `${JSON.stringify(presentExportLine(item, ctx.config.publicUrl))}\n`;
    lines++;
    if (chunk.length >= CHUNK_BYTES) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}${JSON.stringify({ type: 'end', lines })}\n`;
}

export async function exportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { requireAdmin } = makeGuards(ctx);
  app.get(
    '/export',
    {
      schema: {
        tags: ['export'],
        security: [{ bearer: [] }],
        summary: 'The whole account as NDJSON, one object per line with a type; no password hash, token or secret (administrators)',
        produces: ['application/x-ndjson'],
      },
      preValidation: requireAdmin,
    },
    async (request, reply) => {
      const day = new Date(ctx.clock()).toISOString().slice(0, 10);
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="parley-export-${day}.ndjson"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(ndjson(ctx, actor(request).account_id), { objectMode: false }));
    },
  );
}
