/**
 * Presence: an agent's status is what it sets (PUT /me/status; no socket is
 * needed to be online), but when its last stream socket closes and none
 * reopens within the grace period (PRESENCE_GRACE_SECONDS), an `online` agent
 * is set `offline` through setAgentStatus (so `agent.updated` is recorded).
 *
 * Presence is the bookkeeping of who holds sockets: LocalPresence in this
 * process, RedisPresence (redisPresence.ts) across instances. The presence
 * worker asks it, a few times per grace period, which agents are gone; each gone
 * agent is handed to exactly one instance. While the database is
 * unavailable, its failures to set gone agents offline are logged through the
 * app's outage log (errors/unavailableLog.ts); other failures at warn.
 */
import type { AppContext } from '../context.js';
import { setAgentStatus } from '../domain/agents/setAgentStatus.js';
import type { UnavailableSource } from '../errors/unavailableLog.js';
import type { Worker } from '../workers.js';

export interface AgentRef {
  accountId: number;
  agentId: number;
}

export interface Presence {
  /** A stream socket of the agent opened on this instance. */
  opened(agent: AgentRef): void;
  /** A stream socket of the agent closed on this instance. */
  closed(agent: AgentRef): void;
  /** Agents with no socket on any instance for at least the grace period; each is returned once. */
  claimGone(): Promise<AgentRef[]>;
  close(): Promise<void>;
}

export const agentKey = (a: AgentRef): string => `${a.accountId}:${a.agentId}`;

export function parseAgentKey(key: string): AgentRef | null {
  const m = /^(\d+):(\d+)$/.exec(key);
  return m ? { accountId: Number(m[1]), agentId: Number(m[2]) } : null;
}

export class LocalPresence implements Presence {
  private readonly open = new Map<string, number>();
  /** Agents whose last socket closed, with when. */
  private readonly left = new Map<string, number>();

  constructor(
    private readonly graceMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  opened(agent: AgentRef): void {
    const key = agentKey(agent);
    this.open.set(key, (this.open.get(key) ?? 0) + 1);
    this.left.delete(key);
  }

  closed(agent: AgentRef): void {
    const key = agentKey(agent);
    const count = (this.open.get(key) ?? 0) - 1;
    if (count > 0) {
      this.open.set(key, count);
      return;
    }
    this.open.delete(key);
    this.left.set(key, this.now());
  }

  async claimGone(): Promise<AgentRef[]> {
    const due: AgentRef[] = [];
    const cutoff = this.now() - this.graceMs;
    for (const [key, at] of this.left) {
      if (at > cutoff) continue;
      this.left.delete(key);
      const ref = parseAgentKey(key);
      if (ref) due.push(ref);
    }
    return due;
  }

  async close(): Promise<void> {
    this.open.clear();
    this.left.clear();
  }
}

/** How often the worker asks: a quarter of the grace period, between 250 ms and 5 s. */
export function presenceTickMs(graceMs: number): number {
  return Math.min(5000, Math.max(250, Math.floor(graceMs / 4)));
}

/** Sets the agent offline if it is still online (an away or offline agent keeps its status). */
export async function markGone(ctx: AppContext, agent: AgentRef): Promise<boolean> {
  const row = await ctx.db.selectFrom('agents').select('status').where('id', '=', agent.agentId).where('account_id', '=', agent.accountId).executeTakeFirst();
  if (row?.status !== 'online') return false;
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
