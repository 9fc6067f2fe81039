/**
 * Marks an offline message handled, or not handled again (PATCH /api/v1/offline-messages/:id): any
 * agent who sees the message (its channel; every channel for administrators). Handled records when and
 * by whom; marking a handled message handled again keeps the first mark. Another account's message, or
 * one of a channel the agent does not work, is not found. A change is an
 * `offline_message.updated` event in the same transaction, so the other
 * agents' Offline messages pages follow it live.
 */
import type { AppContext } from '../../context.js';
import type { Agent, OfflineMessage } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { presentOfflineMessage } from '../../presenters/offlineMessage.js';
import { readableChannelIds } from '../chats/loadChat.js';

export async function markOfflineMessageHandled(ctx: AppContext, input: { actor: Agent; id: number; handled: boolean }): Promise<OfflineMessage> {
  const { actor, id, handled } = input;
  return commit(ctx.db, ctx.signals, async (tx) => {
    const row = await tx.selectFrom('offline_messages').selectAll().where('id', '=', id).where('account_id', '=', actor.account_id).executeTakeFirst();
    const channels = row ? await readableChannelIds(tx, actor) : null;
    if (!row || (channels && !channels.includes(row.channel_id))) throw notFound(`Offline message ${id}`);
    if (handled === (row.handled_at !== null)) return row;
    const set = handled ? { handled_at: ctx.clock(), handled_by: actor.id } : { handled_at: null, handled_by: null };
    await tx.updateTable('offline_messages').set(set).where('id', '=', id).execute();
    const changed = { ...row, ...set };
    await recordEvent(
      tx,
      { accountId: actor.account_id, type: 'offline_message.updated', channelId: row.channel_id, data: { offline_message: presentOfflineMessage(changed) } },
      ctx.clock(),
    );
    return changed;
  });
}
