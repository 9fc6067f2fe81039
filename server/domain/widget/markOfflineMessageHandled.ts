/**
 * Marks an offline message handled, or not handled again (PATCH /api/v1/offline-messages/:id): any
 * agent who sees the message (its channel; every channel for administrators). Handled records when and
 * by whom; marking a handled message handled again keeps the first mark. Another account's message, or
 * one of a channel the agent does not work, is not found.
 */
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import type { Agent, OfflineMessage } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { readableChannelIds } from '../chats/loadChat.js';

export async function markOfflineMessageHandled(ctx: AppContext, input: { actor: Agent; id: number; handled: boolean }): Promise<OfflineMessage> {
  const { actor, id, handled } = input;
  return inTransaction(ctx.db, async (tx) => {
    const row = await tx.selectFrom('offline_messages').selectAll().where('id', '=', id).where('account_id', '=', actor.account_id).executeTakeFirst();
    const channels = row ? await readableChannelIds(tx, actor) : null;
    if (!row || (channels && !channels.includes(row.channel_id))) throw notFound(`Offline message ${id}`);
    if (handled === (row.handled_at !== null)) return row;
    const set = handled ? { handled_at: ctx.clock(), handled_by: actor.id } : { handled_at: null, handled_by: null };
    await tx.updateTable('offline_messages').set(set).where('id', '=', id).execute();
    return { ...row, ...set };
  });
}
