/**
 * Presence: an agent's status is what it sets (PUT /me/status; no socket is
 * needed to be online), but when its last stream socket closes and none
 * reopens within the grace period (PRESENCE_GRACE_SECONDS), an `online` agent
 * is set `offline` through setAgentStatus (so `agent.updated` is recorded).
 *
 * Presence is the bookkeeping of who holds sockets: LocalPresence in this
 * process, RedisPresence (redisPresence.ts) across instances. The presence
 * worker (presenceWorker.ts) asks it, a few times per grace period, which
 * agents are gone; each gone agent is handed to exactly one instance. This
 * file imports nothing of the app, so AppContext can name Presence without a
 * cycle.
 */

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
