/**
 * Sign-out: revokes the one token the request came with. The agent's streams
 * learn it the way they learn of a new password: an `agent.updated` of the
 * agent, recorded in the same transaction, reaches each of its streams on
 * every instance (relay → hub), and each rechecks its own token at once. So
 * the stream opened with this token closes (4401) right away, not at the next
 * 25 s ping, and the agent's other sessions stay open.
 */
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { presentAgent } from '../../presenters/agent.js';
import { revokeToken } from './tokens.js';

export async function logout(ctx: AppContext, input: { agent: Pick<Agent, 'id' | 'account_id'>; token: string }): Promise<void> {
  const now = ctx.clock();
  await commit(ctx.db, ctx.signals, async (tx) => {
    await revokeToken(tx, input.token, now);
    await recordSignedOut(tx, input.agent, now);
  });
}

/**
 * The agent.updated event of a sign-out, which ends the agent's streams. Read in
 * the transaction: the event carries the agent as it is, so clients that apply
 * it change nothing.
 */
export async function recordSignedOut(tx: Tx, ref: Pick<Agent, 'id' | 'account_id'>, now: number): Promise<void> {
  const agent = await tx.selectFrom('agents').selectAll().where('id', '=', ref.id).where('account_id', '=', ref.account_id).executeTakeFirst();
  if (agent) await recordEvent(tx, { accountId: agent.account_id, type: 'agent.updated', data: { agent: presentAgent(agent) } }, now);
}
