/** Offline messages for agents, newest first (all, or only those handled or not handled): those of the channels the agent works (every channel for administrators), never another account's. */
import type { AppContext } from '../../context.js';
import type { Agent, OfflineMessage } from '../../db/schema.js';
import { readableChannelIds } from '../chats/loadChat.js';

export async function listOfflineMessages(
  ctx: AppContext,
  input: { actor: Agent; page: { limit: number; before: number | null }; handled?: boolean | null },
): Promise<OfflineMessage[]> {
  const { db } = ctx;
  const { actor: agent, page } = input;
  const channels = await readableChannelIds(db, agent);
  if (channels && channels.length === 0) return [];
  let query = db.selectFrom('offline_messages').selectAll().where('account_id', '=', agent.account_id);
  if (channels) query = query.where('channel_id', 'in', channels);
  if (page.before !== null) query = query.where('id', '<', page.before);
  // ?handled=true|false (absent: both).
  if (input.handled === true) query = query.where('handled_at', 'is not', null);
  if (input.handled === false) query = query.where('handled_at', 'is', null);
  return query.orderBy('id', 'desc').limit(page.limit).execute();
}
