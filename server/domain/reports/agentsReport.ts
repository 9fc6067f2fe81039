/**
 * Per agent: chats handled (accepted by the agent, counted where they
 * started), first response (average, median), time Online and Away, average
 * concurrent chats (time in accepted chats ÷ time Online), ratings. Every
 * active agent of the account is listed (an agent: only itself), figures
 * following the channel and department filters; status time is the agent's
 * whatever the filters. From the daily rollup, one pass over the range's
 * rows per agent gives the sums and the first-response bins together.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { num, rollupOf, type Rollup } from './buckets.js';
import { BIN_COLUMNS } from './dailyRollup.js';
import { ratingCounts, type RatingCounts } from './ratingsReport.js';
import { accumulate, TimeAccumulator, type TimeFigures } from './responseTimesReport.js';
import type { ReportScope } from './scope.js';
import { statusTimes } from './statusTime.js';

export interface AgentFigures extends RatingCounts {
  agent_id: number;
  name: string;
  chats_handled: number;
  first_response: TimeFigures;
  online_s: number;
  away_s: number;
  /** Time in accepted chats ÷ time Online (null when never Online in the range). */
  average_concurrency: number | null;
}

export interface AgentsReport {
  agents: AgentFigures[];
}

interface AgentSums {
  agent_id: number;
  accepted: unknown;
  handled_ms: unknown;
  p: unknown;
  n: unknown;
}

const FRT_BINS = BIN_COLUMNS.filter((c) => c.startsWith('frt_'));

/** The daily rollup's rows of the range, once: per agent its sums, and its first-response count, sum and bins into `times`. */
async function dailySums(db: Db, src: Rollup, times: TimeAccumulator): Promise<AgentSums[]> {
  const result = await sql<AgentSums & Record<string, unknown>>`
    select r.agent_id, sum(r.accepted) as accepted, sum(r.handled_ms) as handled_ms, sum(r.positive) as p, sum(r.negative) as n,
      sum(r.frt_count) as fc, sum(r.frt_sum_ms) as fs, ${sql.join(FRT_BINS.map((c) => sql`sum(${sql.ref(`r.${c}`)}) as ${sql.id(c)}`))}
    from report_daily r where ${src.where} and r.agent_id <> 0 group by r.agent_id`.execute(db);
  for (const r of result.rows) {
    times.addSum(r.agent_id, 'frt', num(r.fc), num(r.fs));
    for (const col of FRT_BINS) {
      const n = num(r[col]);
      if (n !== 0) times.addBin(r.agent_id, 'frt', Number(col.slice(4)), n);
    }
  }
  return result.rows;
}

/** From the hourly rollups: the sums, and the first-response figures (report_hist) into `times`, side by side. */
async function hourlySums(db: Db, scope: ReportScope, src: Rollup, times: TimeAccumulator): Promise<AgentSums[]> {
  const [result] = await Promise.all([
    sql<AgentSums>`
      select r.agent_id, sum(r.accepted) as accepted, sum(r.handled_ms) as handled_ms, sum(r.positive) as p, sum(r.negative) as n
      from ${src.table} r where ${src.where} and r.agent_id <> 0 group by r.agent_id`.execute(db),
    accumulate(db, scope, scope.current, times, 'agent'),
  ]);
  return result.rows;
}

export async function agentsReport(db: Db, scope: ReportScope, now: number): Promise<AgentsReport> {
  let agentsQuery = db.selectFrom('agents').select(['id', 'name']).where('account_id', '=', scope.accountId).where('active', '=', 1);
  if (scope.agentId !== null) agentsQuery = agentsQuery.where('id', '=', scope.agentId);
  const agents = await agentsQuery.orderBy('name').orderBy('id').execute();
  const ids = agents.map((a) => a.id);
  const times = new TimeAccumulator();
  const src = rollupOf(scope, scope.current, { bucketed: false, groupBy: 'agent' });
  const [sums, status] = await Promise.all([
    src.daily ? dailySums(db, src, times) : hourlySums(db, scope, src, times),
    statusTimes(db, scope.accountId, ids, scope.current.start, scope.current.end, now),
  ]);
  const byAgent = new Map(sums.map((r) => [r.agent_id, r]));
  return {
    agents: agents.map((a) => {
      const s = byAgent.get(a.id);
      const st = status.get(a.id) ?? { online_ms: 0, away_ms: 0 };
      const handled = num(s?.handled_ms);
      return {
        agent_id: a.id,
        name: a.name,
        chats_handled: num(s?.accepted),
        first_response: times.figures(a.id, 'frt'),
        online_s: Math.round(st.online_ms / 1000),
        away_s: Math.round(st.away_ms / 1000),
        average_concurrency: st.online_ms === 0 ? null : Math.round((handled / st.online_ms) * 100) / 100,
        ...ratingCounts(num(s?.p), num(s?.n)),
      };
    }),
  };
}
