/**
 * An agent has seen a chat up to a message (#20): its chat_reads row moves
 * forward to that message (never back, so an older tab cannot undo a newer
 * read), and its unread count for the chat drops to what came after. Without
 * a message id, up to the chat's last message. Unread state is the agent's
 * own: another agent's count is untouched.
 *
 * When the row moved, a `chat.read` event is recorded in the same
 * transaction, so the agent's other devices clear the chat's badge live and a
 * stream resuming from its cursor replays it like any other event. It belongs
 * to no chat's sequence (the outbox row has the channel, no chat: no seq taken,
 * no chat row locked) and only the reading agent's streams show it
 * (realtime/agentStream.ts). A read that moves nothing (the same message
 * again, an older one) records nothing.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { inTransaction, isPostgres } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { recordEvent } from '../../events/outbox.js';
import { unreadCounts } from './chatSummaries.js';
import { loadChatFor } from './loadChat.js';

export interface ChatRead {
  chat_id: number;
  last_read_message_id: number;
}

export async function markChatRead(ctx: AppContext, input: { actor: Agent; chatId: number; messageId?: number }): Promise<ChatRead> {
  const { db } = ctx;
  const agentId = input.actor.id;
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
  const now = ctx.clock();
  const { row, recorded } = await inTransaction(db, async (tx) => {
    // PostgreSQL: wait for the chat's messages being written (their events lock the chat row) and hold back
    // the next ones, so unread_count counts exactly the messages whose events come before this one in the stream.
    // (SQLite writes one transaction at a time.) First, as a chat's deletion locks the chat before its chat_reads.
    if (isPostgres(tx)) await tx.selectFrom('chats').select('id').where('id', '=', chat.id).forShare().execute();
    const before = await tx
      .selectFrom('chat_reads')
      .select('last_read_message_id')
      .where('agent_id', '=', agentId)
      .where('chat_id', '=', chat.id)
      .executeTakeFirst();
    const after = await tx
      .insertInto('chat_reads')
      .values({ agent_id: agentId, chat_id: chat.id, last_read_message_id: messageId, updated_at: now })
      .onConflict((oc) => oc.columns(['agent_id', 'chat_id']).doUpdateSet({ last_read_message_id: later, updated_at: now }))
      .returning(['chat_id', 'last_read_message_id'])
      .executeTakeFirstOrThrow();
    // `before` can only be older than the row (it moves forward only): when it is not, nothing moved.
    if (before && before.last_read_message_id >= after.last_read_message_id) return { row: after, recorded: false };
    const unread = (await unreadCounts(tx, agentId, [chat.id])).get(chat.id) ?? 0;
    await recordEvent(
      tx,
      {
        accountId: chat.account_id,
        type: 'chat.read',
        channelId: chat.channel_id,
        data: { chat_id: chat.id, agent_id: agentId, last_read_message_id: after.last_read_message_id, unread_count: unread },
      },
      now,
    );
    return { row: after, recorded: true };
  });
  // The relay is woken as commit() does it, when there is an event to relay.
  if (recorded) ctx.signals.outboxWritten();
  return row;
}
