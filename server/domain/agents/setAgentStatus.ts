/** An agent switches online / away / offline; channel availability follows from it. */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { presentAgent } from '../../presenters/agent.js';

export type AgentStatus = Agent['status'];

export async function setAgentStatus(ctx: AppContext, input: { agentId: number; accountId: number; status: AgentStatus }): Promise<Agent> {
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    const agent = await tx
      .updateTable('agents')
      .set({ status: input.status, updated_at: now })
      .where('id', '=', input.agentId)
      .where('account_id', '=', input.accountId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(tx, { accountId: input.accountId, type: 'agent.updated', data: { agent: presentAgent(agent) } }, now);
    return agent;
  });
}
