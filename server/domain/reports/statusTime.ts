/**
 * Time each agent spent Online and Away within [start, end), from the
 * agent_status_changes history: the status in force at `start` (the last
 * change before it) runs until the next change, the end of the range, or now.
 */
import type { Db } from '../../db/database.js';
import { num } from './buckets.js';

export interface StatusTime {
  online_ms: number;
  away_ms: number;
}

export async function statusTimes(
  db: Db,
  accountId: number,
  agentIds: readonly number[],
  start: number,
  end: number,
  now: number,
): Promise<Map<number, StatusTime>> {
  const until = Math.min(end, now);
  const out = new Map<number, StatusTime>(agentIds.map((id) => [id, { online_ms: 0, away_ms: 0 }]));
  if (agentIds.length === 0 || until <= start) return out;
  const [initial, changes] = await Promise.all([
    Promise.all(
      agentIds.map((agentId) =>
        db
          .selectFrom('agent_status_changes')
          .select(['agent_id', 'status'])
          .where('agent_id', '=', agentId)
          .where('account_id', '=', accountId)
          .where('at', '<', start)
          .orderBy('at', 'desc')
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst(),
      ),
    ),
    db
      .selectFrom('agent_status_changes')
      .select(['agent_id', 'status', 'at'])
      .where('account_id', '=', accountId)
      .where('agent_id', 'in', agentIds)
      .where('at', '>=', start)
      .where('at', '<', until)
      .orderBy('at')
      .orderBy('id')
      .execute(),
  ]);
  const current = new Map<number, { status: string; since: number }>();
  for (const row of initial) if (row) current.set(row.agent_id, { status: row.status, since: start });
  const close = (agentId: number, at: number) => {
    const c = current.get(agentId);
    const t = out.get(agentId);
    if (!c || !t) return;
    if (c.status === 'online') t.online_ms += at - c.since;
    if (c.status === 'away') t.away_ms += at - c.since;
  };
  for (const change of changes) {
    const at = num(change.at);
    close(change.agent_id, at);
    current.set(change.agent_id, { status: change.status, since: at });
  }
  for (const agentId of agentIds) close(agentId, until);
  return out;
}
