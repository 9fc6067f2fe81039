/**
 * Reads a chat for an agent: same account, and a channel the agent works
 * (administrators see every channel of their account). Anything else is 404,
 * so ids of other tenants reveal nothing.
 */
import type { Executor } from '../../db/database.js';
import type { Agent, Chat } from '../../db/schema.js';
import type { Actor } from '../agents/actor.js';
import { notFound } from '../../errors/AppError.js';
import { channelIdsVisibleTo } from '../channels/access.js';

/** Channel ids the agent may read, or null for "all of the account" (administrators). */
export async function readableChannelIds(db: Executor, agent: Actor): Promise<number[] | null> {
  return agent.role === 'admin' ? null : channelIdsVisibleTo(db, agent);
}

export async function loadChatFor(db: Executor, agent: Agent, chatId: number): Promise<Chat> {
  const chat = await db.selectFrom('chats').selectAll().where('id', '=', chatId).where('account_id', '=', agent.account_id).executeTakeFirst();
  if (!chat) throw notFound('The chat');
  const channels = await readableChannelIds(db, agent);
  if (channels && !channels.includes(chat.channel_id)) throw notFound('The chat');
  return chat;
}
