/**
 * The agent binds the chat to the visitor's CRM card (the crm_link a
 * chat_accepted answer supplied); subscribers send chat_assigned with it.
 * A chat another agent holds is theirs to bind (chatRights.ts).
 */
import type { AppContext } from '../../context.js';
import type { Agent, Chat } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { recordChatState } from './chatEvents.js';
import { assertMayActOnChat } from './chatRights.js';
import { loadChatFor } from './loadChat.js';

export async function assignChat(ctx: AppContext, input: { actor: Agent; chatId: number }): Promise<Chat> {
  const chat = await loadChatFor(ctx.db, input.actor, input.chatId);
  assertMayActOnChat(input.actor, chat, 'assign');
  if (!chat.crm_link) throw new AppError('conflict', 'This chat has no CRM link to bind to yet (it comes from the chat_accepted answer).');
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    const updated = await tx.updateTable('chats').set({ updated_at: now }).where('id', '=', chat.id).returningAll().executeTakeFirstOrThrow();
    await recordChatState(tx, updated, 'chat.updated', now, { change: 'assigned', agent_id: input.actor.id });
    return updated;
  });
}
