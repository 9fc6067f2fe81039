/**
 * A visitor's file (POST /widget/api/<widget_id>/uploads): checked against
 * the allowed types (and their leading bytes where formats have them), written
 * under DATA_DIR/uploads as `<random>-<safe name>.<ext>` (written to a
 * temporary name, then renamed: a half-written file is never served), and
 * answered with its absolute URL under PUBLIC_URL. The visitor then sends a
 * message with that URL.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context.js';
import { AppError, invalid } from '../../errors/AppError.js';
import { randomPublicId } from '../../lib/ids.js';
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
  input: { contentType: string | undefined; fileName: string | undefined; data: Buffer },
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
  const dir = uploadsDir(ctx.config.dataDir);
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${name}.${randomPublicId(8)}.tmp`);
  await fs.writeFile(temp, input.data, { flag: 'wx' });
  await fs.rename(temp, path.join(dir, name));
  return { file: `${ctx.config.publicUrl}/widget/uploads/${name}`, file_name: display, file_size: input.data.length, type: type.kind };
}
