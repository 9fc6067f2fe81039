/**
 * The agent app reports whether the person is at it (PUT /me/presence):
 * `active` (the app opened, or activity after an idle spell) gives the agent
 * back the status it chose (chosenStatus.ts: an agent set offline because it
 * closed every tab, or Away because it was idle, returns to Online); `idle`
 * (no activity in any tab for the account's `away_after_idle_minutes`) turns
 * an online agent Away, unless the account switched idle detection off (0).
 * Neither changes the remembered choice. The answer tells the app the status,
 * the choice and the idle delay to watch for.
 */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { setAgentStatus } from './setAgentStatus.js';
import { chosenStatus, presenceSettingsOf } from './chosenStatus.js';

export type PresenceState = 'active' | 'idle';

export interface PresenceView {
  agent: Agent;
  chosen_status: Agent['status'];
  away_after_idle_minutes: number;
}

/** The agent's status, its choice and the idle delay, changing nothing (GET /me/presence). */
export async function readPresence(ctx: AppContext, input: { agent: Agent }): Promise<PresenceView> {
  const { agent } = input;
  const settings = await presenceSettingsOf(ctx.db, agent.account_id);
  const current = await ctx.db.selectFrom('agents').selectAll().where('id', '=', agent.id).where('account_id', '=', agent.account_id).executeTakeFirstOrThrow();
  return { agent: current, chosen_status: chosenStatus(current, settings), away_after_idle_minutes: settings.away_after_idle_minutes };
}

export async function markPresence(ctx: AppContext, input: { agent: Agent; state: PresenceState }): Promise<PresenceView> {
  const { state } = input;
  const { agent: current, chosen_status: chosen, away_after_idle_minutes } = await readPresence(ctx, input);
  let target: Agent['status'] = current.status;
  if (state === 'active') target = chosen;
  else if (away_after_idle_minutes > 0 && current.status === 'online') target = 'away';
  const after = target === current.status ? current : await setAgentStatus(ctx, { agentId: current.id, accountId: current.account_id, status: target });
  return { agent: after, chosen_status: chosen, away_after_idle_minutes };
}
