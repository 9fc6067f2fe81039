/**
 * Reading calls for agents. Calls follow the channel access rule of chats
 * (#15 item 9, docs/SECURITY.md §9): an agent sees, and may report the status
 * of, the calls of the channels it works (a channel with no agent_ids belongs
 * to every agent of the account), administrators every call of the account;
 * a call without a channel is every agent's. Any other call is 404, as is
 * another account's, so its id reveals nothing (nor its visitor's phone).
 */
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import type { Call } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { applyPage, type Page } from '../../db/page.js';
import type { Actor } from '../agents/actor.js';
import { readableChannelIds } from '../chats/loadChat.js';

/** Whether the actor sees this call of its account (the chats' channel rule). */
export async function callVisibleTo(db: Executor, actor: Actor, call: Pick<Call, 'account_id' | 'channel_id'>): Promise<boolean> {
  if (call.account_id !== actor.account_id) return false;
  if (call.channel_id === null) return true;
  const channels = await readableChannelIds(db, actor);
  return channels === null || channels.includes(call.channel_id);
}

export async function listCalls(ctx: AppContext, input: { actor: Actor; status?: Call['status']; page: Page }): Promise<Call[]> {
  const { actor, status } = input;
  const channels = await readableChannelIds(ctx.db, actor);
  const q = ctx.db
    .selectFrom('calls')
    .selectAll()
    .where('account_id', '=', actor.account_id)
    .$if(channels !== null, (qb) =>
      qb.where((eb) => eb.or([eb('channel_id', 'is', null), ...(channels && channels.length > 0 ? [eb('channel_id', 'in', channels)] : [])])),
    )
    .$if(status !== undefined, (qb) => qb.where('status', '=', status as Call['status']));
  return applyPage(q, input.page, 'id').execute();
}

export async function getCall(ctx: AppContext, input: { actor: Actor; callId: number }): Promise<Call> {
  const { actor, callId } = input;
  const call = await ctx.db.selectFrom('calls').selectAll().where('id', '=', callId).where('account_id', '=', actor.account_id).executeTakeFirst();
  if (!call || !(await callVisibleTo(ctx.db, actor, call))) throw notFound(`Call ${callId}`);
  return call;
}
