/**
 * An admin removes a channel of its account; its visitors, chats and messages
 * go with it (foreign keys cascade), the chat channel's cache forgets it, and
 * the visitor sockets of a widget are closed (the pages remove the widget).
 */
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors/AppError.js';
import { closeWidgetSockets } from '../../realtime/widgetSockets.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { forgetChatChannel } from '../chatChannel/findChannel.js';

export async function deleteChannel(ctx: AppContext, input: { actor: Actor; id: number }): Promise<void> {
  assertAdmin(input.actor);
  const deleted = await ctx.db
    .deleteFrom('channels')
    .where('id', '=', input.id)
    .where('account_id', '=', input.actor.account_id)
    .returning(['public_id', 'type'])
    .executeTakeFirst();
  if (!deleted) throw notFound(`Channel ${input.id}`);
  forgetChatChannel(ctx.db, deleted.public_id);
  // Open pages of a widget lose it within seconds (svc_onWidgetDestroy).
  if (deleted.type === 'widget') closeWidgetSockets(ctx, input.id);
}
