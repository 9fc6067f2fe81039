/** An admin removes a channel of its account; its visitors, chats and messages go with it (foreign keys cascade). */
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors/AppError.js';
import { assertAdmin, type Actor } from '../agents/actor.js';

export async function deleteChannel(ctx: AppContext, input: { actor: Actor; id: number }): Promise<void> {
  assertAdmin(input.actor);
  const result = await ctx.db
    .deleteFrom('channels')
    .where('id', '=', input.id)
    .where('account_id', '=', input.actor.account_id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound(`Channel ${input.id}`);
}
