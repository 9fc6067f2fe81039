/**
 * An agent switches online / away / offline; channel availability follows
 * from it. A real change is also kept in agent_status_changes (reports: time
 * Online and Away), and ends the agent's row before it (`ended_at`).
 * `chosen`: the agent itself chose it (PUT /me/status), so it is remembered
 * as the status the agent gets back when it opens the app (chosenStatus.ts);
 * automatic changes (idle, gone) leave the choice alone.
 */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { presentAgent } from '../../presenters/agent.js';

export type AgentStatus = Agent['status'];

export async function setAgentStatus(ctx: AppContext, input: { agentId: number; accountId: number; status: AgentStatus; chosen?: boolean }): Promise<Agent> {
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    const before = await tx.selectFrom('agents').select('status').where('id', '=', input.agentId).where('account_id', '=', input.accountId).executeTakeFirst();
    const agent = await tx
      .updateTable('agents')
      .set({ status: input.status, updated_at: now, ...(input.chosen ? { chosen_status: input.status } : {}) })
      .where('id', '=', input.agentId)
      .where('account_id', '=', input.accountId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (before && before.status !== agent.status) {
      // The status held until now: its row ends here (the agents row, updated above, serializes an agent's changes).
      await tx.updateTable('agent_status_changes').set({ ended_at: now }).where('agent_id', '=', agent.id).where('ended_at', 'is', null).execute();
      await tx
        .insertInto('agent_status_changes')
        .values({ account_id: agent.account_id, agent_id: agent.id, status: agent.status, at: now, ended_at: null })
        .execute();
    }
    await recordEvent(tx, { accountId: input.accountId, type: 'agent.updated', data: { agent: presentAgent(agent) } }, now);
    return agent;
  });
}
