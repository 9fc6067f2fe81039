/**
 * Uploaded files for administrators (#31 item 3, docs/SECURITY.md §8):
 * GET /api/v1/uploads/usage (the quotas, the account's use by channel and its
 * top visitors) and freeing space: DELETE /api/v1/chats/:id/uploads and
 * DELETE /api/v1/visitors/:id/uploads remove the files (the messages stay,
 * marked `file_removed`) and answer what was freed.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../context.js';
import { freeChatUploadsFor, freeVisitorUploadsFor } from '../../../../domain/uploads/freeUploads.js';
import { uploadUsage } from '../../../../domain/uploads/uploadUsage.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { IdParams, readId } from '../../../params.js';

export async function uploadsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { requireAdmin } = makeGuards(ctx);
  const guarded = { security: [{ bearer: [] }] };
  app.get(
    '/uploads/usage',
    {
      schema: { tags: ['uploads'], ...guarded, summary: 'What uploaded files take: quotas, use by channel, top visitors (administrators)' },
      preValidation: requireAdmin,
    },
    async (request) => uploadUsage(ctx, actor(request).account_id),
  );
  app.delete<{ Params: { id: string } }>(
    '/chats/:id/uploads',
    {
      schema: { tags: ['uploads'], ...guarded, params: IdParams, summary: "Free a chat's files; its messages stay, marked file_removed → {files, bytes}" },
      preValidation: requireAdmin,
    },
    async (request) => freeChatUploadsFor(ctx, actor(request), readId(request.params, 'Chat')),
  );
  app.delete<{ Params: { id: string } }>(
    '/visitors/:id/uploads',
    {
      schema: { tags: ['uploads'], ...guarded, params: IdParams, summary: "Free a visitor's files (sent or not) and those of its chats → {files, bytes}" },
      preValidation: requireAdmin,
    },
    async (request) => freeVisitorUploadsFor(ctx, actor(request), readId(request.params, 'Visitor')),
  );
}
