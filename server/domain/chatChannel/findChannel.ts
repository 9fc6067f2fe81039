/** Resolves a chat-channel endpoint path (random string + CHANNEL_PUBLIC_ID) to its channel, or null. */
import type { Executor } from '../../db/database.js';
import type { Channel } from '../../db/schema.js';
import { prepared } from '../../db/prepared.js';
import { safeEqual } from '../../lib/ids.js';

const chatApiChannel = prepared(['publicId'], (db, p: { publicId: string }) =>
  db.selectFrom('channels').selectAll().where('public_id', '=', p.publicId).where('type', '=', 'chat_api'),
);

export async function findChatApiChannel(db: Executor, secret: string, publicId: string): Promise<Channel | null> {
  if (publicId.length > 64 || secret.length > 128) return null;
  const channel = await chatApiChannel.first(db, { publicId });
  if (!channel || !channel.secret || !safeEqual(channel.secret, secret)) return null;
  return channel;
}
