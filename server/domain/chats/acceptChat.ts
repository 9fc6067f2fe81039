/**
 * An agent presses Reply: the pending chat becomes active and belongs to that
 * agent. The state change is a conditional update, so two agents pressing at
 * once (even on two instances) cannot both win: the loser gets 409.
 */
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { Agent, Chat } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { parseJson } from '../../lib/json.js';
import { stopRouting } from '../routing/offerChat.js';
import { recordChatState } from './chatEvents.js';
import { loadChatFor } from './loadChat.js';

export function withAgent(chat: Chat, agentId: number): string {
  const ids = parseJson<number[]>(chat.agent_ids_json, []);
  return JSON.stringify(ids.includes(agentId) ? ids : [...ids, agentId]);
}

/** Accepts inside an open transaction; returns the chat as it is afterwards. */
export async function acceptInTx(tx: Tx, chat: Chat, actor: Agent, now: number): Promise<Chat> {
  if (chat.status === 'finished') throw new AppError('chat_finished');
  if (chat.status === 'active') {
    if (chat.accepted_by === actor.id) return chat;
    throw new AppError('chat_already_accepted');
  }
  const updated = await tx
    .updateTable('chats')
    .set({ status: 'active', accepted_by: actor.id, accepted_at: now, updated_at: now, agent_ids_json: withAgent(chat, actor.id) })
    .where('id', '=', chat.id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!updated) {
    const current = await tx.selectFrom('chats').selectAll().where('id', '=', chat.id).executeTakeFirstOrThrow();
    if (current.status === 'finished') throw new AppError('chat_finished');
    if (current.accepted_by === actor.id) return current;
    throw new AppError('chat_already_accepted');
  }
  await recordChatState(tx, updated, 'chat.updated', now, { change: 'accepted', agent_id: actor.id });
  await stopRouting(tx, updated.id);
  return updated;
}

export async function acceptChat(ctx: AppContext, input: { actor: Agent; chatId: number }): Promise<Chat> {
  const chat = await loadChatFor(ctx.db, input.actor, input.chatId);
  return commit(ctx.db, ctx.signals, (tx) => acceptInTx(tx, chat, input.actor, ctx.clock()));
}
