/** Chat lists and details for agents (newest first, paged by id). Suppressed messages never appear. */
import type { Db } from '../../db/database.js';
import type { Agent, Chat } from '../../db/schema.js';
import { presentChat, type ChatDto } from '../../presenters/chat.js';
import { presentMessage } from '../../presenters/message.js';
import { loadChatFor, readableChannelIds } from './loadChat.js';

export interface ChatListQuery {
  status?: Chat['status'];
  limit: number;
  before?: number;
}

export async function listChats(db: Db, agent: Agent, q: ChatListQuery): Promise<ChatDto[]> {
  const channels = await readableChannelIds(db, agent);
  if (channels && channels.length === 0) return [];
  let query = db
    .selectFrom('chats')
    .selectAll()
    .where('account_id', '=', agent.account_id);
  if (channels) query = query.where('channel_id', 'in', channels);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.before !== undefined) query = query.where('id', '<', q.before);
  const chats = await query.orderBy('id', 'desc').limit(q.limit).execute();
  if (chats.length === 0) return [];
  const visitors = await db.selectFrom('visitors').selectAll().where('id', 'in', [...new Set(chats.map((c) => c.visitor_id))]).execute();
  const byId = new Map(visitors.map((v) => [v.id, v]));
  return chats.map((c) => presentChat(c, byId.get(c.visitor_id)!));
}

export async function getChat(db: Db, agent: Agent, chatId: number): Promise<ChatDto> {
  const chat = await loadChatFor(db, agent, chatId);
  const visitor = await db.selectFrom('visitors').selectAll().where('id', '=', chat.visitor_id).executeTakeFirstOrThrow();
  const messages = await db.selectFrom('messages').selectAll().where('chat_id', '=', chat.id).where('suppressed', '=', 0).orderBy('id', 'asc').execute();
  return presentChat(chat, visitor, messages.map(presentMessage));
}
