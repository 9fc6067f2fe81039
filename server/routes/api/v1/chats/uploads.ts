/**
 * POST /api/v1/chats/:id/uploads: an agent's file for a reply, the raw file as
 * the body (Content-Type = its type, X-File-Name = its name, URI-encoded, up
 * to 10 MiB), answered with {file, file_name, file_size, type} to send as a
 * media message (POST /chats/:id/messages). Served like a visitor's file
 * (GET /widget/uploads/<name>): domain/messages/storeAgentUpload.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../context.js';
import { storeAgentUpload } from '../../../../domain/messages/storeAgentUpload.js';
import { MAX_UPLOAD_BYTES } from '../../../../domain/uploads/storeUpload.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { IdParams, readId } from '../../../params.js';
import { readBodyAsBytes } from '../../../rawBody.js';

export async function chatUploadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { requireAgent } = makeGuards(ctx);
  // The file itself is the body, so this scope reads any Content-Type as bytes.
  await app.register(async (scope) => {
    readBodyAsBytes(scope, MAX_UPLOAD_BYTES, 'The file is too large; files of up to 10 MB can be sent.');
    scope.post<{ Params: { id: string } }>(
      '/chats/:id/uploads',
      {
        bodyLimit: MAX_UPLOAD_BYTES,
        schema: {
          tags: ['chats'],
          security: [{ bearer: [] }],
          params: IdParams,
          summary:
            'Upload a file for a reply: the raw file as the body (image, audio, video, PDF, office document, text or zip, up to 10 MB), its type as Content-Type, its name URI-encoded in X-File-Name → {file, file_name, file_size, type}; send it with POST /chats/:id/messages as {type, file, file_name, file_size}',
        },
        preValidation: requireAgent,
      },
      async (request) => {
        const name = request.headers['x-file-name'];
        return storeAgentUpload(ctx, {
          actor: actor(request),
          chatId: readId(request.params, 'Chat'),
          contentType: request.headers['content-type'],
          fileName: typeof name === 'string' ? name : undefined,
          data: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
      },
    );
  });
}
