/** One erasure job of the administrator's account (GET /api/v1/erasures/:id); 404 for another account's. */
import type { AppContext } from '../../context.js';
import type { Agent, Erasure } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';

export async function getErasure(ctx: AppContext, actor: Agent, id: number): Promise<Erasure> {
  const row = await ctx.db.selectFrom('erasures').selectAll().where('id', '=', id).where('account_id', '=', actor.account_id).executeTakeFirst();
  if (!row) throw notFound('The erasure');
  return row;
}
