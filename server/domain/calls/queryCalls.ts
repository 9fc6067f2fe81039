/**
 * Reading calls for agents: every agent of the account sees the account's
 * calls (any of them may report a call's status), newest first, optionally
 * of one status. Another account's call is 404, so its id reveals nothing.
 */
import type { Executor } from '../../db/database.js';
import type { Call } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { applyPage, type Page } from '../../db/page.js';
import type { Actor } from '../agents/actor.js';

export async function listCalls(db: Executor, actor: Actor, input: { status?: Call['status']; page: Page }): Promise<Call[]> {
  const { status } = input;
  const q = db
    .selectFrom('calls')
    .selectAll()
    .where('account_id', '=', actor.account_id)
    .$if(status !== undefined, (qb) => qb.where('status', '=', status as Call['status']));
  return applyPage(q, input.page, 'id').execute();
}

export async function getCall(db: Executor, actor: Actor, callId: number): Promise<Call> {
  const call = await db.selectFrom('calls').selectAll().where('id', '=', callId).where('account_id', '=', actor.account_id).executeTakeFirst();
  if (!call) throw notFound(`Call ${callId}`);
  return call;
}
