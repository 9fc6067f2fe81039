/** The visitor rates its open chat, or its last one once finished: positive or negative, shown to agents (chat.updated, change rated) and sent in chat_finished. */
import type { AppContext } from '../../context.js';
import type { Chat, Visitor } from '../../db/schema.js';
import { AppError, invalid } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { recordChatState } from '../chats/chatEvents.js';
import { lockVisitor } from './visitorAccess.js';
import { currentChat } from './widgetState.js';

export async function rateChat(ctx: AppContext, input: { visitor: Visitor; rate: unknown }): Promise<Chat> {
  const { rate } = input;
  if (rate !== 'positive' && rate !== 'negative') throw invalid('rate must be "positive" or "negative".');
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    await lockVisitor(tx, input.visitor.id, now);
    const chat = await currentChat(tx, input.visitor.id);
    if (!chat) throw new AppError('conflict', 'There is no chat to rate yet: write a message first.');
    if (chat.rate === rate) return chat;
    const updated = await tx.updateTable('chats').set({ rate, updated_at: now }).where('id', '=', chat.id).returningAll().executeTakeFirstOrThrow();
    await recordChatState(tx, updated, 'chat.updated', now, { change: 'rated' });
    return updated;
  });
}
