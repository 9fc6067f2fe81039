/**
 * An agent or admin uploads its own photo (POST /api/v1/me/photo): an image
 * (PNG, JPEG, GIF or WebP, its leading bytes checked, at most
 * AGENT_PHOTO_MAX_BYTES) stored like a visitor's file (domain/uploads/storeUpload.ts):
 * under DATA_DIR/uploads, served at PUBLIC_URL/widget/uploads/<name>, one
 * `uploads` row counted in the account's UPLOAD_QUOTA_MB. Its URL becomes the
 * agent's photo_url: sender.photo to chat channels, agent.photo in event
 * webhooks, the photo in the widget.
 *
 * The row carries agent_id while it is the agent's photo; the photo it
 * replaces (or any, when PATCH /me sets a link or null: releasePhotos) is let
 * go of and swept an hour after it was made (retention/uploadSweeper.ts).
 */
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { AppError, invalid } from '../../errors/AppError.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { presentAgent } from '../../presenters/agent.js';
import { assertQuota, lockAccountForQuota } from '../uploads/quota.js';
import { storeFile } from '../uploads/uploadFiles.js';
import { storedName, uploadsDir } from '../uploads/storeUpload.js';
import { uploadTypeOf } from '../uploads/uploadTypes.js';

/** A photo is shown at 32–128 px: 2 MiB is plenty, and keeps the quota for visitors' files. */
export const AGENT_PHOTO_MAX_BYTES = 2 * 1024 * 1024;

/** The image types a photo may have (by Content-Type); the same as visitors' images, without BMP. */
export const AGENT_PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/**
 * Lets go of the agent's uploaded photos except the one named `keep` (the
 * photo it has now): they no longer keep their files (swept after their hour).
 */
export async function releasePhotos(tx: Tx, agentId: number, keep: string | null): Promise<void> {
  await tx
    .updateTable('uploads')
    .set({ agent_id: null })
    .where('agent_id', '=', agentId)
    .$if(keep !== null, (q) => q.where('name', '<>', keep!))
    .execute();
}

/** The upload name of a photo_url that is one of this service's uploads, else null. */
export function uploadNameOf(ctx: AppContext, photoUrl: string | null): string | null {
  const prefix = `${ctx.config.publicUrl}/widget/uploads/`;
  return photoUrl?.startsWith(prefix) ? photoUrl.slice(prefix.length) : null;
}

export async function setAgentPhoto(ctx: AppContext, input: { agent: Agent; contentType: string | undefined; data: Buffer }): Promise<Agent> {
  const mime = (input.contentType ?? '').split(';')[0].trim().toLowerCase();
  const type = (AGENT_PHOTO_TYPES as readonly string[]).includes(mime) ? uploadTypeOf(mime) : null;
  if (!type) throw new AppError('unsupported_media_type', 'A photo must be a PNG, JPEG, GIF or WebP image (sent with its Content-Type).');
  if (input.data.length === 0) throw invalid('The photo is empty.');
  if (input.data.length > AGENT_PHOTO_MAX_BYTES) throw new AppError('payload_too_large', 'The photo is too large; photos of up to 2 MB can be used.');
  if (type.magic && !type.magic(input.data.subarray(0, 16))) throw new AppError('unsupported_media_type', `The file is not a ${type.ext.toUpperCase()} image.`);

  const { agent } = input;
  const name = storedName('photo', type);
  const size = input.data.length;
  const owner = { accountId: agent.account_id, channelId: null, visitorId: null };
  const full = "The photo was not stored: the account's storage for uploaded files (UPLOAD_QUOTA_MB) is full.";
  await assertQuota(ctx, ctx.db, owner, size, full);

  const now = ctx.clock();
  return storeFile(uploadsDir(ctx.config.dataDir), name, input.data, 'The photo', (place) =>
    commit(ctx.db, ctx.signals, async (tx) => {
      // The account row serializes quota checks on PostgreSQL, as storeUpload does (SQLite has one writer).
      await lockAccountForQuota(ctx, tx, agent.account_id);
      await assertQuota(ctx, tx, owner, size, full);
      await tx
        .insertInto('uploads')
        .values({ name, account_id: agent.account_id, channel_id: null, visitor_id: null, size, message_id: null, agent_id: agent.id, created_at: now })
        .execute();
      await releasePhotos(tx, agent.id, name);
      const updated = await tx
        .updateTable('agents')
        .set({ photo_url: `${ctx.config.publicUrl}/widget/uploads/${name}`, updated_at: now })
        .where('id', '=', agent.id)
        .where('account_id', '=', agent.account_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordEvent(tx, { accountId: agent.account_id, type: 'agent.updated', data: { agent: presentAgent(updated) } }, now);
      await place();
      return updated;
    }),
  );
}
