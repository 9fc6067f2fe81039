/**
 * A visitor's file (POST /widget/api/<widget_id>/uploads), or an agent's
 * (POST /api/v1/chats/:id/uploads, messages/storeAgentUpload.ts): checked against
 * the allowed types (and their leading bytes where formats have them), written
 * under DATA_DIR/uploads as `<random>-<safe name>.<ext>` (written to a
 * temporary name, then renamed: a half-written file is never served), and
 * answered with its absolute URL under PUBLIC_URL. The visitor (or agent) then
 * sends a message with that URL (which attaches the upload to it: attachUpload).
 *
 * Every stored file has an `uploads` row (migration 016) with its size, and
 * the rows may not sum past the account's, the channel's or the visitor's
 * quota (uploads/quota.ts): the check and the insert are one transaction,
 * serialized per account (the account row is locked on PostgreSQL; SQLite has
 * one writer), so uploads racing each other on any instance cannot overshoot
 * them. The file is renamed into place inside that transaction (once: a run
 * PostgreSQL aborts for a deadlock runs again, db/transient.ts, and finds it
 * there) and removed again, with its temporary file, on every failure
 * (uploads/uploadFiles.ts; a full disk is 503 storage_full). Uploads no
 * message carries are deleted after an hour (retention/uploadSweeper.ts).
 */
import path from 'node:path';
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import { AppError, invalid } from '../../errors/AppError.js';
import { randomPublicId } from '../../lib/ids.js';
import { assertQuota, lockAccountForQuota } from './quota.js';
import { storeFile } from './uploadFiles.js';
import { WIDGET_UPLOAD_MAX_BYTES, type UploadResponse } from '../../../protocol/widget.js';
import { cutText } from '../messages/normalizeMessage.js';
import { uploadTypeOf, uploadTypeOfName, type UploadType } from './uploadTypes.js';

export const MAX_UPLOAD_BYTES = WIDGET_UPLOAD_MAX_BYTES;
const NAME = /^[a-z0-9]{24}-[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

export const uploadsDir = (dataDir: string): string => path.join(dataDir, 'uploads');

/** The name the visitor gave (X-File-Name, possibly URL-encoded), without control characters. */
export function displayName(raw: string | undefined, type: UploadType): string {
  let name = raw ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // not encoded: kept as sent
  }
  // eslint-disable-next-line no-control-regex
  name = cutText(name.replace(/[\u0000-\u001f\u007f/\\]/g, '').trim(), 255);
  return name === '' ? `file.${type.ext}` : name;
}

/** `<random>-<ascii name>.<ext>`: nothing a path or a header could misread. */
export function storedName(display: string, type: UploadType): string {
  const base =
    display
      .replace(/\.[^.]*$/, '')
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60) || 'file';
  return `${randomPublicId(24)}-${base}.${type.ext}`;
}

/** Whether a name is one storedName() could have made (one path segment, a known type). */
export function isUploadName(name: string): boolean {
  return NAME.test(name) && !name.includes('..') && uploadTypeOfName(name) !== null;
}

/** The stored file of a served name, or null when the name is not one we make. */
export function uploadFile(dataDir: string, name: string): { file: string; type: UploadType } | null {
  const type = uploadTypeOfName(name);
  if (!isUploadName(name) || !type) return null;
  return { file: path.join(uploadsDir(dataDir), name), type };
}

export async function storeUpload(
  ctx: AppContext,
  input: {
    accountId: number;
    /** The widget's channel (a visitor's file) or the chat's (an agent's). */
    channelId: number | null;
    /** The visitor who sent it; null for an agent's file (messages/storeAgentUpload.ts). */
    visitorId: number | null;
    contentType: string | undefined;
    fileName: string | undefined;
    data: Buffer;
  },
): Promise<UploadResponse> {
  const type = uploadTypeOf(input.contentType);
  if (!type) {
    throw new AppError('unsupported_media_type', 'This file type cannot be sent; send an image, audio, video, PDF, office document, text or zip file.');
  }
  if (input.data.length === 0) throw invalid('The file is empty.');
  if (input.data.length > MAX_UPLOAD_BYTES) throw new AppError('payload_too_large', 'The file is too large; files of up to 10 MB can be sent.');
  if (type.magic && !type.magic(input.data.subarray(0, 16))) {
    throw new AppError('unsupported_media_type', `The file's content is not what its type (${type.ext}) says.`);
  }
  const display = displayName(input.fileName, type);
  const name = storedName(display, type);
  const size = input.data.length;
  const owner = { accountId: input.accountId, channelId: input.channelId, visitorId: input.visitorId };
  // Cheap refusal first, before writing anything (the transaction checks again).
  await assertQuota(ctx, ctx.db, owner, size);
  await storeFile(uploadsDir(ctx.config.dataDir), name, input.data, 'The file', (place) =>
    inTransaction(ctx.db, async (tx) => {
      await lockAccountForQuota(ctx, tx, input.accountId);
      await assertQuota(ctx, tx, owner, size);
      await tx
        .insertInto('uploads')
        .values({
          name,
          account_id: input.accountId,
          channel_id: input.channelId,
          visitor_id: input.visitorId,
          size,
          message_id: null,
          created_at: ctx.clock(),
        })
        .execute();
      await place();
    }),
  );
  return { file: `${ctx.config.publicUrl}/widget/uploads/${name}`, file_name: display, file_size: input.data.length, type: type.kind };
}
