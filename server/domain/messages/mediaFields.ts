/**
 * An agent's media message (video, audio, voice, photo, sticker, document)
 * always carries file_name and file_size, as the spec requires of every
 * media message (file_size a positive integer of bytes): so the chat
 * channel's customer endpoint, the widget and event webhooks always get them
 * (docs/CHAT-CHANNEL.md "The outbound body").
 *
 * When the file is an upload Parley stores for the chat's account (a URL
 * under PUBLIC_URL/widget/uploads/ with an `uploads` row), its size is the
 * stored file's (a size given for it is replaced: the stored one is the
 * fact) and a missing name is the stored name without its random prefix.
 * Any other file (a link elsewhere, another account's upload, one already
 * swept or freed) must come with both; a message without them is refused
 * (400 validation_failed naming the missing fields), before anything is
 * written. Media the chat channel or a visitor sends in are kept without
 * them (normalizeMessage.ts); this is the rule of what agents send out.
 */
import type { Tx } from '../../db/database.js';
import { invalid } from '../../errors/AppError.js';
import { isUploadName } from '../uploads/storeUpload.js';
import { MEDIA_TYPES, type NormalizedMessage } from './normalizeMessage.js';

const isMedia = (type: string): boolean => (MEDIA_TYPES as readonly string[]).includes(type);

/** The stored name of a file URL that points at Parley's uploads, or null. */
function uploadNameOf(file: string, publicUrl: string): string | null {
  const prefix = `${publicUrl}/widget/uploads/`;
  let url: URL;
  try {
    url = new URL(file);
  } catch {
    return null;
  }
  const bare = `${url.origin}${url.pathname}`;
  if (!bare.startsWith(prefix)) return null;
  const name = bare.slice(prefix.length);
  return isUploadName(name) ? name : null;
}

/** `<random>-<name>.<ext>` → `<name>.<ext>` (uploads/storeUpload.ts storedName). */
const shownName = (stored: string): string => stored.slice(stored.indexOf('-') + 1);

export async function completeMediaFields(tx: Tx, input: { accountId: number; publicUrl: string; message: NormalizedMessage }): Promise<NormalizedMessage> {
  const m = input.message;
  if (!isMedia(m.type) || m.file === null) return m;
  const name = uploadNameOf(m.file, input.publicUrl);
  const upload = name
    ? await tx.selectFrom('uploads').select(['name', 'size']).where('name', '=', name).where('account_id', '=', input.accountId).executeTakeFirst()
    : undefined;
  if (upload) return { ...m, file_name: m.file_name ?? shownName(upload.name), file_size: upload.size };
  const what = [m.file_name === null ? 'file_name' : null, m.file_size === null ? 'file_size' : null].filter((f) => f !== null);
  if (what.length === 0) return m;
  const meaning =
    what.length > 1
      ? "the file's name and its size in bytes, a positive integer"
      : what[0] === 'file_name'
        ? "the file's name"
        : "the file's size in bytes, a positive integer";
  throw invalid(
    `${what.join(' and ')} ${what.length > 1 ? 'are' : 'is'} required for a ${m.type} message (${meaning}); ` +
      'Parley fills these fields itself only for a file uploaded to it (POST /api/v1/chats/:id/uploads).',
  );
}
