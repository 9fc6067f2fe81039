/**
 * Resolves a chat-channel endpoint path (random string + CHANNEL_PUBLIC_ID) to
 * its channel, or null. On PostgreSQL the lookups of concurrent requests share
 * one query (db/coalesce.ts); on SQLite a lookup costs microseconds and runs alone.
 */
import { sql } from 'kysely';
import { isPostgres, type Db } from '../../db/database.js';
import type { Channel } from '../../db/schema.js';
import { Coalescer } from '../../db/coalesce.js';
import { prepared } from '../../db/prepared.js';
import { safeEqual } from '../../lib/ids.js';

const chatApiChannel = prepared(['publicId'], (db, p: { publicId: string }) =>
  db.selectFrom('channels').selectAll().where('public_id', '=', p.publicId).where('type', '=', 'chat_api'),
);

const chatApiChannels = prepared(['publicIds'], (db, p: { publicIds: string[] }) =>
  db.selectFrom('channels').selectAll().where('public_id', '=', sql<string>`any(${p.publicIds})`).where('type', '=', 'chat_api'),
);

const loaders = new WeakMap<Db, Coalescer<string, Channel>>();

function loaderOf(db: Db): Coalescer<string, Channel> {
  let loader = loaders.get(db);
  if (!loader) {
    loader = new Coalescer(async (publicIds) => new Map((await chatApiChannels.execute(db, { publicIds })).map((c) => [c.public_id, c])));
    loaders.set(db, loader);
  }
  return loader;
}

export async function findChatApiChannel(db: Db, secret: string, publicId: string): Promise<Channel | null> {
  if (publicId.length > 64 || secret.length > 128) return null;
  const channel = isPostgres(db) ? await loaderOf(db).get(publicId) : await chatApiChannel.first(db, { publicId });
  if (!channel || !channel.secret || !safeEqual(channel.secret, secret)) return null;
  return channel;
}
