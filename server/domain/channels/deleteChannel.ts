/**
 * An admin removes a channel of its account; its visitors, chats and messages
 * go with it (foreign keys cascade), and the chat channel's cache forgets it.
 */
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors/AppError.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { forgetChatApiChannel } from '../chatChannel/findChannel.js';

export async function deleteChannel(ctx: AppContext, input: { actor: Actor; id: number }): Promise<void> {
  assertAdmin(input.actor);
  const deleted = await ctx.db
    .deleteFrom('channels')
    .where('id', '=', input.id)
    .where('account_id', '=', input.actor.account_id)
    .returning('public_id')
    .executeTakeFirst();
  if (!deleted) throw notFound(`Channel ${input.id}`);
  forgetChatApiChannel(ctx.db, deleted.public_id);
}
