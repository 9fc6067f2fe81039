/**
 * Resolves a chat-channel endpoint path (random string + CHANNEL_PUBLIC_ID) to
 * its channel, or null. Channels are kept in this process for up to 1 s
 * (channelCache.ts, AppContext.chatChannels): most requests cost no query. This
 * process's channel changes evict their entry when they commit
 * (forgetChatChannel), so they apply to the next request; another instance's
 * apply here when their channel.changed event arrives (app.ts), within 1 s at
 * the latest. A miss
 * is looked up every time; on PostgreSQL the loads of concurrent requests share
 * one query (db/coalesce.ts). The secret is compared on every request.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { isPostgres, type Db } from '../../db/database.js';
import type { Channel } from '../../db/schema.js';
import { Coalescer } from '../../db/coalesce.js';
import { prepared } from '../../db/prepared.js';
import { safeEqual } from '../../lib/ids.js';
import { ChannelCache } from './channelCache.js';

const chatChannelById = prepared(['publicId'], (db, p: { publicId: string }) =>
  db.selectFrom('channels').selectAll().where('public_id', '=', p.publicId).where('type', '=', 'chat_api'),
);

const chatChannelsById = prepared(['publicIds'], (db, p: { publicIds: string[] }) =>
  db
    .selectFrom('channels')
    .selectAll()
    .where('public_id', '=', sql<string>`any(${p.publicIds})`)
    .where('type', '=', 'chat_api'),
);

/**
 * The chat channels this process keeps, read from its store. `watch` is called
 * once for each account one of them belongs to: the composition root (app.ts)
 * has it follow that account's channel.changed events into `cache.evictChannel`.
 */
export function chatChannelCache(db: Db, watch?: (accountId: number) => void): ChannelCache {
  if (isPostgres(db)) {
    const loader = new Coalescer<string, Channel>(
      async (publicIds) => new Map((await chatChannelsById.execute(db, { publicIds })).map((c) => [c.public_id, c])),
    );
    return new ChannelCache((publicId) => loader.get(publicId), undefined, watch);
  }
  return new ChannelCache((publicId) => chatChannelById.first(db, { publicId }), undefined, watch);
}

export async function findChatChannel(ctx: Pick<AppContext, 'chatChannels' | 'clock'>, secret: string, publicId: string): Promise<Channel | null> {
  if (publicId.length > 64 || secret.length > 128) return null;
  const channel = await ctx.chatChannels.get(publicId, ctx.clock());
  if (!channel || !channel.secret || !safeEqual(channel.secret, secret)) return null;
  return channel;
}

/** A channel with this public id changed or is gone: the next request reads the store. Call it after the change commits. */
export function forgetChatChannel(ctx: Pick<AppContext, 'chatChannels'>, publicId: string): void {
  ctx.chatChannels.evict(publicId);
}

/**
 * A write for this channel failed: true when its address no longer resolves,
 * read from the store (the channel deleted, or its secret rotated, by another
 * instance within the cache's TTL or while the write ran).
 */
export async function isChatChannelGone(ctx: Pick<AppContext, 'chatChannels' | 'clock'>, channel: Channel): Promise<boolean> {
  forgetChatChannel(ctx, channel.public_id);
  return (await findChatChannel(ctx, channel.secret ?? '', channel.public_id)) === null;
}
