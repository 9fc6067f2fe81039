/**
 * The agent a chat is offered to declines it (POST /api/v1/chats/:id/decline):
 * the offer runs out now, and the routing worker of this instance is woken to
 * offer it to the next agent at once. Only the agent it is offered to may
 * decline (409 otherwise: the offer moved on, or was never theirs).
 */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { loadChatFor } from '../chats/loadChat.js';
import { OFFERS_DUE } from './routingWorker.js';

export async function declineOffer(ctx: AppContext, input: { actor: Agent; chatId: number }): Promise<void> {
  const chat = await loadChatFor(ctx.db, input.actor, input.chatId);
  const r = await ctx.db
    .updateTable('chat_offers')
    .set({ expires_at: ctx.clock() })
    .where('chat_id', '=', chat.id)
    .where('agent_id', '=', input.actor.id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new AppError('conflict', 'This chat is not offered to you (any more): it may have gone to another agent.');
  ctx.signals.emit(OFFERS_DUE);
}
