/** Resolves a chat-channel endpoint path (random string + CHANNEL_PUBLIC_ID) to its channel, or null. */
import type { Executor } from '../../db/database.js';
import type { Channel } from '../../db/schema.js';
import { safeEqual } from '../../lib/ids.js';

export async function findChatApiChannel(db: Executor, secret: string, publicId: string): Promise<Channel | null> {
  if (publicId.length > 64 || secret.length > 128) return null;
  const channel = await db.selectFrom('channels').selectAll().where('public_id', '=', publicId).where('type', '=', 'chat_api').executeTakeFirst();
  if (!channel || !channel.secret || !safeEqual(channel.secret, secret)) return null;
  return channel;
}
