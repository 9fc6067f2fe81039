/**
 * Visitor files: POST /widget/api/<widget_id>/uploads takes the raw file
 * (Content-Type = its type, X-File-Name = its name, up to 10 MiB) and answers
 * UploadResponse; GET /widget/uploads/<name> serves it, never sniffed, and
 * as an attachment unless it is an image (so nothing uploaded renders as a
 * page of ours).
 */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { MAX_UPLOAD_BYTES, storeUpload, uploadFile } from '../../domain/uploads/storeUpload.js';
import { notFound } from '../../errors/AppError.js';
import type { RateLimiter } from '../rateLimit.js';
import { readBodyAsBytes } from '../rawBody.js';
import { LIMITS } from './limits.js';
import { visitorOf, type WidgetParams } from './visitorCall.js';

export async function widgetUploadRoutes(app: FastifyInstance, ctx: AppContext, limiter: RateLimiter): Promise<void> {
  await app.register(async (scope) => {
    readBodyAsBytes(scope, MAX_UPLOAD_BYTES, 'The file is too large; files of up to 10 MB can be sent.');
    scope.post<{ Params: WidgetParams }>(
      '/api/:widgetId/uploads',
      { bodyLimit: MAX_UPLOAD_BYTES, schema: { tags: ['widget'], summary: 'Upload a file (raw body, X-File-Name header) → UploadResponse' } },
      async (request) => {
        const { channel, visitor } = await visitorOf(ctx, limiter, request, { visitor: LIMITS.uploadPerVisitor, ip: LIMITS.uploadPerIp });
        const name = request.headers['x-file-name'];
        return storeUpload(ctx, {
          accountId: channel.account_id,
          channelId: channel.id,
          visitorId: visitor.id,
          contentType: request.headers['content-type'],
          fileName: typeof name === 'string' ? name : undefined,
          data: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
      },
    );
  });

  app.get<{ Params: { name: string } }>('/uploads/:name', { schema: { tags: ['widget'], summary: 'An uploaded file' } }, async (request, reply) => {
    const found = uploadFile(ctx.config.dataDir, request.params.name);
    const stat = found ? await fs.promises.stat(found.file).catch(() => null) : null;
    if (!found || !stat?.isFile()) throw notFound('The file');
    const image = found.type.kind === 'photo';
    void reply
      .type(found.type.mime)
      .header('content-length', stat.size)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, max-age=31536000, immutable');
    if (!image) {
      const shown = request.params.name.slice(25); // after `<random>-`
      void reply.header('content-disposition', `attachment; filename="${shown}"`);
    }
    return reply.send(fs.createReadStream(found.file));
  });
}
