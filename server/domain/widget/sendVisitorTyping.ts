/** The visitor starts or stops typing: agents get a `typing` event (author visitor) on the open chat; without one, nothing happens. */
import type { AppContext } from '../../context.js';
import type { Visitor } from '../../db/schema.js';
import { commit } from '../../events/outbox.js';
import { recordChatEvent } from '../chats/chatEvents.js';
import { findOpenChat } from '../chats/openChat.js';

export async function sendVisitorTyping(ctx: AppContext, input: { visitor: Visitor; typing: boolean }): Promise<void> {
  if (input.visitor.blacklisted) return;
  const now = ctx.clock();
  await commit(ctx.db, ctx.signals, async (tx) => {
    const chat = await findOpenChat(tx, input.visitor.id);
    if (chat) await recordChatEvent(tx, chat, 'typing', { chat_id: chat.id, author: 'visitor', typing: input.typing }, now);
  });
}
