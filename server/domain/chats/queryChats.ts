/**
 * Chat lists and details for agents (newest first, paged by id). Suppressed
 * messages never appear. List rows carry the last message and the agent's
 * unread count (chatSummaries.ts), and a waiting chat who it is offered to
 * (chatOffers.ts). `q` searches the archive: visitor name or e-mail, or
 * the text of a message, case-insensitively. They return rows; the route
 * presents them (presenters/chat.ts).
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Agent, Chat, ChatOffer, Message, Visitor } from '../../db/schema.js';
import { offerOf } from './chatOffers.js';
import { chatRows, type ChatRowData } from './chatSummaries.js';
import { loadChatFor, readableChannelIds } from './loadChat.js';

export interface ChatListQuery {
  status?: Chat['status'];
  limit: number;
  before?: number;
  q?: string;
}

/** A LIKE pattern matching `text` anywhere, with the wildcards of the text escaped. */
function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listChats(ctx: AppContext, q: ChatListQuery & { actor: Agent }): Promise<ChatRowData[]> {
  const { db } = ctx;
  const agent = q.actor;
  const channels = await readableChannelIds(db, agent);
  if (channels && channels.length === 0) return [];
  let query = db.selectFrom('chats').selectAll().where('account_id', '=', agent.account_id);
  if (channels) query = query.where('channel_id', 'in', channels);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.before !== undefined) query = query.where('id', '<', q.before);
  const search = q.q?.trim();
  if (search) {
    const pattern = containing(search);
    const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    query = query.where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('visitors')
            .select('visitors.id')
            .whereRef('visitors.id', '=', 'chats.visitor_id')
            .where((v) => v.or([like('visitors.name'), like('visitors.email')])),
        ),
        eb.exists(
          eb
            .selectFrom('messages')
            .select('messages.id')
            .whereRef('messages.chat_id', '=', 'chats.id')
            .where('messages.suppressed', '=', 0)
            .where(like('messages.text')),
        ),
      ]),
    );
  }
  const chats = await query.orderBy('id', 'desc').limit(q.limit).execute();
  return chatRows(db, agent.id, chats);
}

/** What a chat's detail is made of (presenters/chat.ts presentChatDetail shows it). */
export interface ChatDetail {
  chat: Chat;
  visitor: Visitor;
  messages: Message[];
  offer: ChatOffer | null;
}

export async function getChat(ctx: AppContext, input: { actor: Agent; chatId: number }): Promise<ChatDetail> {
  const { db } = ctx;
  const chat = await loadChatFor(db, input.actor, input.chatId);
  const visitor = await db.selectFrom('visitors').selectAll().where('id', '=', chat.visitor_id).executeTakeFirstOrThrow();
  const messages = await db.selectFrom('messages').selectAll().where('chat_id', '=', chat.id).where('suppressed', '=', 0).orderBy('id', 'asc').execute();
  return { chat, visitor, messages, offer: await offerOf(db, chat) };
}
