/** An admin removes a canned response of its account (404 for any other). */
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors/AppError.js';
import { assertAdmin, type Actor } from '../agents/actor.js';

export async function deleteCannedResponse(ctx: AppContext, input: { actor: Actor; id: number }): Promise<void> {
  assertAdmin(input.actor);
  const gone = await ctx.db.deleteFrom('canned_responses').where('id', '=', input.id).where('account_id', '=', input.actor.account_id).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) throw notFound(`Canned response ${input.id}`);
}
