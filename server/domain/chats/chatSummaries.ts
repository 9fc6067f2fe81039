/**
 * What a chat list row shows besides the chat (#20): the last message agents
 * see (private notes and suppressed messages aside) and the signed-in agent's
 * unread count, the visitor's messages after the last one it has read
 * (chat_reads, migration 027). Both are counted when a list is read, two
 * queries per page on the messages_chat (chat_id, id) index, so writing a
 * message costs nothing more. chatRows() turns chats into list rows (with
 * their visitor, channel and, for waiting chats, offer: chatOffers.ts), for
 * every list: inbox, search, a visitor's chats.
 */
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Chat, Message } from '../../db/schema.js';
import { offersOf } from './chatOffers.js';

export interface ChatSummaries {
  last: Map<number, Message>;
  unread: Map<number, number>;
}

export async function chatSummaries(db: Executor, agentId: number, chatIds: number[]): Promise<ChatSummaries> {
  if (chatIds.length === 0) return { last: new Map(), unread: new Map() };
  const lastMessages = await db
    .selectFrom('chats as c')
    .innerJoin('messages as m', (join) =>
      join.on(
        'm.id',
        '=',
        sql<number>`(select m2.id from messages m2 where m2.chat_id = c.id and m2.suppressed = 0 and m2.internal = 0 order by m2.id desc limit 1)`,
      ),
    )
    .selectAll('m')
    .where('c.id', 'in', chatIds)
    .execute();
  return { last: new Map(lastMessages.map((m) => [m.chat_id, m])), unread: await unreadCounts(db, agentId, chatIds) };
}

/** The agent's unread count of each chat (chats with none are left out): the visitor's messages after its chat_reads row. */
export async function unreadCounts(db: Executor, agentId: number, chatIds: number[]): Promise<Map<number, number>> {
  if (chatIds.length === 0) return new Map();
  const counts = await db
    .selectFrom('messages as m')
    .leftJoin('chat_reads as r', (join) => join.onRef('r.chat_id', '=', 'm.chat_id').on('r.agent_id', '=', agentId))
    .select(['m.chat_id', sql<number | string>`count(*)`.as('n')])
    .where('m.chat_id', 'in', chatIds)
    .where('m.author', '=', 'visitor')
    .where('m.suppressed', '=', 0)
    .where(sql<boolean>`m.id > coalesce(r.last_read_message_id, 0)`)
    .groupBy('m.chat_id')
    .execute();
  return new Map(counts.map((r) => [r.chat_id, Number(r.n)]));
}

// What a chat list row is made of is below the domain (the presenters show it).
import type { ChatRowData } from '../../model/chatRow.js';
export type { ChatRowData };

/** Chats (already checked for the agent) with what their list rows show, in the order given. */
export async function chatRows(db: Executor, agentId: number, chats: Chat[]): Promise<ChatRowData[]> {
  if (chats.length === 0) return [];
  const [visitors, channels, summaries, offers] = await Promise.all([
    db
      .selectFrom('visitors')
      .selectAll()
      .where('id', 'in', [...new Set(chats.map((c) => c.visitor_id))])
      .execute(),
    db
      .selectFrom('channels')
      .select(['id', 'type', 'name'])
      .where('id', 'in', [...new Set(chats.map((c) => c.channel_id))])
      .execute(),
    chatSummaries(
      db,
      agentId,
      chats.map((c) => c.id),
    ),
    offersOf(db, chats),
  ]);
  const visitorById = new Map(visitors.map((v) => [v.id, v]));
  const channelById = new Map(channels.map((ch) => [ch.id, ch]));
  return chats.map((c) => ({
    chat: c,
    visitor: visitorById.get(c.visitor_id)!,
    channel: channelById.get(c.channel_id)!,
    last: summaries.last.get(c.id),
    unread: summaries.unread.get(c.id) ?? 0,
    offer: offers.get(c.id) ?? null,
  }));
}
