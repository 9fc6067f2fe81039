/**
 * An agent hands a chat to another agent (issue 6): the chat becomes active
 * and accepted by the target, who joins its agent_ids; a system message
 * ("Transferred from A to B") and chat.updated (change 'transferred') are
 * recorded in the same transaction. The target must be an active agent of the
 * account who works the chat's channel (400 otherwise). The agent holding the
 * chat or an administrator may transfer it (anyone who sees it, while it
 * waits: chatRights.ts); a finished chat is 409. The update is conditional on the state read,
 * so two transfers (or a transfer and a Reply) at once cannot both win.
 */
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { Agent, Chat, ChatUpdate } from '../../db/schema.js';
import { AppError, invalid } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { insertMessage } from '../messages/insertMessage.js';
import type { NormalizedMessage } from '../messages/normalizeMessage.js';
import { withAgent } from './acceptChat.js';
import { recordChatState, recordMessageCreated } from './chatEvents.js';
import { assertMayActOnChat } from './chatRights.js';
import { loadChatFor, readableChannelIds } from './loadChat.js';

export function systemText(text: string): NormalizedMessage {
  return { type: 'text', text, file: null, file_name: null, file_size: null, thumb: null, latitude: null, longitude: null, extra: {}, external_id: null };
}

/** The agent the chat goes to: active, of the account, working the chat's channel. */
async function loadTarget(tx: Tx, chat: Chat, agentId: number): Promise<Agent> {
  const target = await tx.selectFrom('agents').selectAll().where('id', '=', agentId).where('account_id', '=', chat.account_id).executeTakeFirst();
  if (!target) throw invalid(`agent_id must name an agent of this account; ${agentId} is not one.`);
  if (target.active !== 1) throw invalid(`${target.name} is deactivated and cannot take chats.`);
  const channels = await readableChannelIds(tx, target);
  if (channels && !channels.includes(chat.channel_id)) throw invalid(`${target.name} does not work this chat's channel; assign them to the channel first.`);
  if (chat.status === 'active' && chat.accepted_by === target.id) throw invalid(`The chat is already with ${target.name}.`);
  return target;
}

export function assertMayTransfer(chat: Chat, actor: Agent): void {
  if (chat.status === 'finished') throw new AppError('chat_finished', 'This chat is finished; it can no longer be transferred.');
  assertMayActOnChat(actor, chat, 'transfer');
}

export async function agentName(tx: Tx, id: number | null, fallback: Agent): Promise<string> {
  if (id === null) return fallback.name;
  const row = await tx.selectFrom('agents').select('name').where('id', '=', id).executeTakeFirst();
  return row?.name ?? fallback.name;
}

/**
 * The frame every transfer shares: the chat read again in the transaction, who
 * may transfer it (assertMayTransfer), `plan`'s change (and the name of whom it
 * goes to) written on condition of the state read, so a concurrent take or move
 * makes it a 409; then chat.updated (change 'transferred') and the system
 * message "Transferred from <holder> to <to>", and `then` (in the transaction).
 */
export async function transferWith(
  ctx: AppContext,
  input: { actor: Agent; chatId: number },
  plan: (tx: Tx, chat: Chat, now: number) => Promise<{ set: ChatUpdate; to: string }>,
  then: (tx: Tx, updated: Chat, now: number) => Promise<void> = async () => {},
): Promise<Chat> {
  const { actor } = input;
  const loaded = await loadChatFor(ctx.db, actor, input.chatId);
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    const chat = await tx.selectFrom('chats').selectAll().where('id', '=', loaded.id).executeTakeFirstOrThrow();
    assertMayTransfer(chat, actor);
    const { set, to } = await plan(tx, chat, now);
    const from = await agentName(tx, chat.accepted_by, actor);
    const updated = await tx
      .updateTable('chats')
      .set({ ...set, updated_at: now })
      .where('id', '=', chat.id)
      .where('status', '=', chat.status)
      .where('accepted_by', chat.accepted_by === null ? 'is' : '=', chat.accepted_by)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new AppError('conflict', 'The chat changed while it was being transferred (another agent took or moved it); look at it again.');
    await recordChatState(tx, updated, 'chat.updated', now, { change: 'transferred', agent_id: actor.id });
    const message = await insertMessage(tx, { chat: updated, author: 'system', message: systemText(`Transferred from ${from} to ${to}`), now });
    await recordMessageCreated(tx, updated, message, now);
    await then(tx, updated, now);
    return updated;
  });
}

export async function transferChat(ctx: AppContext, input: { actor: Agent; chatId: number; agentId: number }): Promise<Chat> {
  return transferWith(ctx, input, async (tx, chat, now) => {
    const target = await loadTarget(tx, chat, input.agentId);
    return {
      set: { status: 'active', accepted_by: target.id, accepted_at: chat.accepted_at ?? now, agent_ids_json: withAgent(chat, target.id) },
      to: target.name,
    };
  });
}
