/**
 * The channels an agent sees (GET /api/v1/me/channels): by the rule of the
 * chat lists, the search and the stream (readableChannelIds): the channels it
 * works, a channel with no assigned agents being everyone's, and every channel
 * of the account for administrators. Only what an agent may know of them: id,
 * type and name, as a chat list row names its channel. The Archive filters by them.
 */
import type { AppContext } from '../../context.js';
import type { Channel } from '../../db/schema.js';
import type { Actor } from '../agents/actor.js';
import { readableChannelIds } from '../chats/loadChat.js';

export type ChannelRef = Pick<Channel, 'id' | 'type' | 'name'>;

export async function listVisibleChannels(ctx: AppContext, input: { actor: Actor }): Promise<ChannelRef[]> {
  const { db } = ctx;
  const ids = await readableChannelIds(db, input.actor);
  if (ids !== null && ids.length === 0) return [];
  let q = db.selectFrom('channels').select(['id', 'type', 'name']).where('account_id', '=', input.actor.account_id);
  if (ids !== null) q = q.where('id', 'in', ids);
  return q.orderBy('name').orderBy('id').execute();
}
