/**
 * Time each agent spent Online and Away within [start, end), from the
 * agent_status_changes history: the status in force at `start` (the last
 * change before it) runs until the next change, the end of the range, or now.
 * Each change knows when the next one came (`ended_at`, migration
 * 026_status_ends), so the time of a range is one aggregate over the
 * covering index (account, agent, at, status, ended_at): no window ordering
 * every change of the range per agent, which made a year-long report slow.
 */
import { sql } from 'kysely';
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
  // The status in force at `start` (each agent's last change before it), and the time of each status
  // summed in SQL (a change lasts until the agent's next one, `ended_at`, or `until`): a year of 20
  // agents is ~30,000 changes, which need not cross the wire.
  const [initial, sums] = await Promise.all([
    // One statement for every agent (each its last change before `start`, read backwards on the
    // (agent_id, at) index): one query per agent cost more in round trips than in reading.
    sql<{ agent_id: number; status: string }>`
      select s.agent_id, s.status from agent_status_changes s
      where s.id in (
        select (select c.id from agent_status_changes c
          where c.agent_id = a.id and c.account_id = ${accountId} and c.at < ${start} order by c.at desc, c.id desc limit 1)
        from agents a where a.id in (${sql.join(agentIds)})
      )`.execute(db),
    sql<{ agent_id: number; status: string; first_at: unknown; ms: unknown }>`
      select agent_id, status, min(at) as first_at,
        sum((case when ended_at is null or ended_at > ${until} then ${until} else ended_at end) - at) as ms
      from agent_status_changes
      where account_id = ${accountId} and agent_id in (${sql.join(agentIds)}) and at >= ${start} and at < ${until}
      group by agent_id, status`.execute(db),
  ]);
  const firstChange = new Map<number, number>();
  for (const row of sums.rows) {
    const t = out.get(row.agent_id);
    if (!t) continue;
    // Per status: the agent's first change in the range is the earliest of them.
    firstChange.set(row.agent_id, Math.min(firstChange.get(row.agent_id) ?? Infinity, num(row.first_at)));
    if (row.status === 'online') t.online_ms += num(row.ms);
    if (row.status === 'away') t.away_ms += num(row.ms);
  }
  // The status in force at `start` lasts until the agent's first change in the range (or `until`).
  for (const row of initial.rows) {
    const t = out.get(row.agent_id);
    if (!t) continue;
    const ms = (firstChange.get(row.agent_id) ?? until) - start;
    if (row.status === 'online') t.online_ms += ms;
    if (row.status === 'away') t.away_ms += ms;
  }
  return out;
}
