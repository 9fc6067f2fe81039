/**
 * Reading calls for agents: every agent of the account sees the account's
 * calls (any of them may report a call's status), newest first, optionally
 * of one status. Another account's call is 404, so its id reveals nothing.
 */
import type { AppContext } from '../../context.js';
import type { Call } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { applyPage, type Page } from '../../db/page.js';
import type { Actor } from '../agents/actor.js';

export async function listCalls(ctx: AppContext, input: { actor: Actor; status?: Call['status']; page: Page }): Promise<Call[]> {
  const { actor, status } = input;
  const q = ctx.db
    .selectFrom('calls')
    .selectAll()
    .where('account_id', '=', actor.account_id)
    .$if(status !== undefined, (qb) => qb.where('status', '=', status as Call['status']));
  return applyPage(q, input.page, 'id').execute();
}

export async function getCall(ctx: AppContext, input: { actor: Actor; callId: number }): Promise<Call> {
  const { actor, callId } = input;
  const call = await ctx.db.selectFrom('calls').selectAll().where('id', '=', callId).where('account_id', '=', actor.account_id).executeTakeFirst();
  if (!call) throw notFound(`Call ${callId}`);
  return call;
}
