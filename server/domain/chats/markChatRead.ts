/**
 * An agent has seen a chat up to a message (#20): its chat_reads row moves
 * forward to that message (never back, so an older tab cannot undo a newer
 * read), and its unread count for the chat drops to what came after. Without
 * a message id, up to the chat's last message. Unread state is the agent's
 * own: another agent's count is untouched.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { isPostgres } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { loadChatFor } from './loadChat.js';

export interface ChatRead {
  chat_id: number;
  last_read_message_id: number;
}

export async function markChatRead(ctx: AppContext, input: { actor: Agent; chatId: number; messageId?: number }): Promise<ChatRead> {
  const { db } = ctx;
  const chat = await loadChatFor(db, input.actor, input.chatId);
  let messageId = input.messageId;
  if (messageId === undefined) {
    const last = await db.selectFrom('messages').select('id').where('chat_id', '=', chat.id).orderBy('id', 'desc').limit(1).executeTakeFirst();
    messageId = last?.id ?? 0;
  } else {
    const found = await db.selectFrom('messages').select('id').where('id', '=', messageId).where('chat_id', '=', chat.id).executeTakeFirst();
    if (!found) throw invalid(`message_id ${messageId} is not a message of chat ${chat.id}.`);
  }
  const later = isPostgres(db)
    ? sql<number>`greatest(chat_reads.last_read_message_id, excluded.last_read_message_id)`
    : sql<number>`max(chat_reads.last_read_message_id, excluded.last_read_message_id)`;
  const row = await db
    .insertInto('chat_reads')
    .values({ agent_id: input.actor.id, chat_id: chat.id, last_read_message_id: messageId, updated_at: ctx.clock() })
    .onConflict((oc) => oc.columns(['agent_id', 'chat_id']).doUpdateSet({ last_read_message_id: later, updated_at: ctx.clock() }))
    .returning(['chat_id', 'last_read_message_id'])
    .executeTakeFirstOrThrow();
  return row;
}
