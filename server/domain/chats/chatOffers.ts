/**
 * Who the waiting chats are offered to, for the API's chat answers (`offer`,
 * docs/ROUTING.md): the chat_offers rows the routing keeps (domain/routing/),
 * read by primary key, only for chats that wait (an offer means nothing once
 * a chat is active or finished). Reading only: routing itself moves the rows.
 */
import type { Executor } from '../../db/database.js';
import type { Chat, ChatOffer } from '../../db/schema.js';

/** chat id → its offer row, for the pending chats among `chats` (one query; none when no chat waits). */
export async function offersOf(db: Executor, chats: Array<Pick<Chat, 'id' | 'status'>>): Promise<Map<number, ChatOffer>> {
  const waiting = chats.filter((c) => c.status === 'pending').map((c) => c.id);
  if (waiting.length === 0) return new Map();
  const rows = await db.selectFrom('chat_offers').selectAll().where('chat_id', 'in', waiting).execute();
  return new Map(rows.map((r) => [r.chat_id, r]));
}

/** One chat's offer row, or null (none, or the chat does not wait). */
export async function offerOf(db: Executor, chat: Pick<Chat, 'id' | 'status'>): Promise<ChatOffer | null> {
  return (await offersOf(db, [chat])).get(chat.id) ?? null;
}
