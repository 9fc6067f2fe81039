/**
 * An admin removes a channel of its account; its visitors, chats and messages
 * go with it (foreign keys cascade) and the chat channel's cache forgets it;
 * a channel.changed event tells open agent streams (their apps drop its chats)
 * and the widget's visitor sockets on every instance, which close (the pages
 * remove the widget: realtime/visitorSocket.ts).
 */
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { forgetChatChannel } from '../chatChannel/findChannel.js';
import { recordChannelChanged } from './channelChanged.js';

export async function deleteChannel(ctx: AppContext, input: { actor: Actor; id: number }): Promise<void> {
  assertAdmin(input.actor);
  const { account_id: accountId } = input.actor;
  const deleted = await commit(ctx.db, ctx.signals, async (tx) => {
    const row = await tx
      .deleteFrom('channels')
      .where('id', '=', input.id)
      .where('account_id', '=', accountId)
      .returning(['public_id', 'type'])
      .executeTakeFirst();
    if (!row) throw notFound(`Channel ${input.id}`);
    await recordChannelChanged(tx, accountId, input.id, 'deleted', ctx.clock());
    return row;
  });
  forgetChatChannel(ctx, deleted.public_id);
}
