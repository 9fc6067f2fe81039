/**
 * An agent starts or stops typing: agents and the visitor's side are told
 * (typein/typeout for chat channels). Typing in a chat another agent holds is
 * refused like writing to its visitor (chatRights.ts).
 */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { commit } from '../../events/outbox.js';
import { enqueueAgentTyping } from '../chatChannel/outbound.js';
import { recordChatEvent } from './chatEvents.js';
import { assertMayActOnChat } from './chatRights.js';
import { loadChatFor } from './loadChat.js';

export async function sendTyping(ctx: AppContext, input: { actor: Agent; chatId: number; typing: boolean }): Promise<void> {
  const chat = await loadChatFor(ctx.db, input.actor, input.chatId);
  if (chat.status === 'finished') return;
  assertMayActOnChat(input.actor, chat, 'typing');
  const now = ctx.clock();
  await commit(ctx.db, ctx.signals, async (tx) => {
    await recordChatEvent(tx, chat, 'typing', { chat_id: chat.id, author: 'agent', agent_id: input.actor.id, typing: input.typing }, now);
    const channel = await tx.selectFrom('channels').selectAll().where('id', '=', chat.channel_id).executeTakeFirstOrThrow();
    if (channel.type !== 'chat_api') return;
    const visitor = await tx.selectFrom('visitors').selectAll().where('id', '=', chat.visitor_id).executeTakeFirstOrThrow();
    await enqueueAgentTyping(tx, { channel, visitor, agent: input.actor, chatId: chat.id, typing: input.typing, now });
  });
}
