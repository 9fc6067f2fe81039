/**
 * The presence worker: a few times per grace period it asks Presence
 * (presence.ts) which agents have had no stream socket on any instance for
 * PRESENCE_GRACE_SECONDS, and sets each such `online` (or idle Away) agent `offline` through
 * setAgentStatus (so `agent.updated` is recorded). While the database is
 * unavailable, its failures to set gone agents offline are logged through the
 * app's outage log (errors/unavailableLog.ts); other failures at warn.
 */
import type { AppContext, Worker } from '../context.js';
import { chosenStatus, presenceSettingsOf } from '../domain/agents/chosenStatus.js';
import { setAgentStatus } from '../domain/agents/setAgentStatus.js';
import type { UnavailableSource } from '../errors/unavailableLog.js';
import type { AgentRef } from './presence.js';

/** How often the worker asks: a quarter of the grace period, between 250 ms and 5 s. */
export function presenceTickMs(graceMs: number): number {
  return Math.min(5000, Math.max(250, Math.floor(graceMs / 4)));
}

/**
 * Sets the agent offline if it is still online, or Away only because it was
 * idle (its chosen status is not away); an agent that chose Away, or is
 * offline, keeps its status. Opening the app again restores the choice
 * (domain/agents/markPresence.ts).
 */
export async function markGone(ctx: AppContext, agent: AgentRef): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('agents')
    .select(['status', 'chosen_status'])
    .where('id', '=', agent.agentId)
    .where('account_id', '=', agent.accountId)
    .executeTakeFirst();
  if (!row || row.status === 'offline') return false;
  if (row.status === 'away' && chosenStatus(row, await presenceSettingsOf(ctx.db, agent.accountId)) === 'away') return false;
  await setAgentStatus(ctx, { agentId: agent.agentId, accountId: agent.accountId, status: 'offline' });
  return true;
}

/** Failed presence checks while the database is unavailable, in the outage log. */
const CHECKS: UnavailableSource = { name: 'presence', first: 'presence check failed', unit: ['check', 'checks'], verb: 'failed' };

export const presenceWorker: Worker = async (app, ctx) => {
  let stopped = false;
  let running: Promise<void> | null = null;
  const tick = async (): Promise<void> => {
    try {
      for (const agent of await ctx.presence.claimGone()) {
        if (stopped) return;
        if (await markGone(ctx, agent)) ctx.log.info({ agentId: agent.agentId }, 'agent went offline: no stream socket within the grace period');
      }
    } catch (err) {
      app.unavailableLog.report(err, CHECKS, { log: ctx.log, msg: 'presence check failed', level: 'warn' });
    }
  };
  const timer = setInterval(
    () => {
      if (!running) running = tick().finally(() => (running = null));
    },
    presenceTickMs(ctx.config.presenceGraceSeconds * 1000),
  );
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
};
