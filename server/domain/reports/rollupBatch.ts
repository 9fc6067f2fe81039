/**
 * The rollup writes of one relay batch, summed in memory and written at its
 * end (issue 23): every chat's share taken back and added (chatContribution.ts)
 * lands in a map per rollup row, and the batch writes each table once, one
 * multi-row upsert that adds the sums (report_hourly, report_hist,
 * report_daily) and one that stores the chats' new facts (report_chat_facts).
 * Adding is commutative, so the rows come out as one upsert per share would
 * leave them; it runs in the relay's transaction, before the cursor's move
 * commits (reports/subscriber.ts), so it is written exactly once with it.
 *
 * The statements are written as text (numbers bound as parameters): they
 * vary only with the number of rows, and Kysely's builder cost more than the
 * rows on this path.
 */
import { CompiledQuery } from 'kysely';
import { isPostgres, type Tx } from '../../db/database.js';
import type { ReportChatFactsTable } from '../../db/schema.js';
import { binOf } from './bins.js';
import { dayOf, MEASURES, type DailyZone } from './dailyRollup.js';

type Facts = ReportChatFactsTable;
type Measure = (typeof MEASURES)[number];

const KEY = ['account_id', 'hour', 'channel_id', 'department_id', 'agent_id'] as const;
const HIST_KEY = [...KEY, 'metric', 'bin'] as const;
const DAILY_KEY = ['account_id', 'day', 'channel_id', 'department_id', 'agent_id'] as const;
const FACT_COLUMNS = [
  'chat_id',
  'account_id',
  'hour',
  'channel_id',
  'department_id',
  'agent_id',
  'accepted',
  'finished',
  'missed',
  'frt_ms',
  'dur_ms',
  'handled_ms',
  'positive',
  'negative',
] as const satisfies readonly (keyof Facts)[];
/** Migration 015_reports_cube: a dimension left out is the "all" (-1) row. */
const ALL = -1;

/** What a share adds to each measure (sign 1) or takes back (-1). */
export function measuresOf(f: Facts, sign: 1 | -1): Record<Measure, number> {
  return {
    started: sign,
    accepted: sign * f.accepted,
    finished: sign * f.finished,
    missed: sign * f.missed,
    frt_count: f.frt_ms === null ? 0 : sign,
    frt_sum_ms: sign * (f.frt_ms ?? 0),
    dur_count: f.dur_ms === null ? 0 : sign,
    dur_sum_ms: sign * (f.dur_ms ?? 0),
    handled_ms: sign * f.handled_ms,
    positive: sign * f.positive,
    negative: sign * f.negative,
  };
}

/** A row's key values and the sums to add to its columns. */
interface Row {
  key: Array<number | string>;
  add: Record<string, number>;
}

function addTo(rows: Map<string, Row>, key: Array<number | string>, add: Record<string, number>): void {
  const id = key.join('\n');
  const row = rows.get(id);
  if (!row) {
    rows.set(id, { key, add: { ...add } });
    return;
  }
  for (const [column, value] of Object.entries(add)) row.add[column] = (row.add[column] ?? 0) + value;
}

export class RollupBatch {
  private readonly hourly = new Map<string, Row>();
  private readonly hist = new Map<string, Row>();
  private readonly daily = new Map<string, Row>();
  /** Chat id → its facts as the batch leaves them (written to report_chat_facts). */
  readonly facts = new Map<number, Facts>();

  get empty(): boolean {
    return this.facts.size === 0;
  }

  /** Adds (1) or takes back (-1) a chat's share: the exact key and the four "all" rows of the hour, the histograms, and the daily rows when the zone covers the hour. */
  addShare(f: Facts, sign: 1 | -1, zone: DailyZone | undefined): void {
    const m = measuresOf(f, sign);
    const cube: Array<[number, number, number]> = [
      [f.channel_id, f.department_id, f.agent_id],
      [ALL, ALL, ALL],
      [f.channel_id, ALL, ALL],
      [ALL, f.department_id, ALL],
      [ALL, ALL, f.agent_id],
    ];
    const bins: Array<['frt' | 'dur', number]> = [];
    if (f.frt_ms !== null) bins.push(['frt', binOf(f.frt_ms)]);
    if (f.dur_ms !== null) bins.push(['dur', binOf(f.dur_ms)]);
    for (const [c, d, a] of cube) {
      addTo(this.hourly, [f.account_id, f.hour, c, d, a], m);
      for (const [metric, bin] of bins) addTo(this.hist, [f.account_id, f.hour, c, d, a, metric, bin], { count: sign });
    }
    if (zone === undefined || (zone.built_through !== null && f.hour >= zone.built_through)) return;
    // The daily row: the exact key and the seven "all" combinations (migration 023).
    const values: Record<string, number> = { ...m };
    for (const [metric, bin] of bins) values[`${metric}_${bin}`] = sign;
    const day = dayOf(zone.timezone, f.hour);
    for (let cut = 0; cut < 8; cut++) {
      const [c, d, a] = [f.channel_id, f.department_id, f.agent_id].map((v, i) => (cut & (1 << i) ? ALL : v));
      addTo(this.daily, [f.account_id, day, c, d, a], values);
    }
  }

  /** Writes the batch: four statements at most (more only past MAX_PARAMS), whatever its number of chats. */
  async write(tx: Tx): Promise<void> {
    if (this.empty) return;
    const pg = isPostgres(tx);
    await upsertSums(tx, pg, 'report_hourly', KEY, MEASURES, this.hourly);
    await upsertSums(tx, pg, 'report_hist', HIST_KEY, ['count'], this.hist);
    const binColumns = new Set<string>();
    for (const row of this.daily.values())
      for (const column of Object.keys(row.add)) if (!(MEASURES as readonly string[]).includes(column)) binColumns.add(column);
    await upsertSums(tx, pg, 'report_daily', DAILY_KEY, [...MEASURES, ...[...binColumns].sort()], this.daily);
    const facts = [...this.facts.values()];
    const perStatement = Math.floor(MAX_PARAMS / FACT_COLUMNS.length);
    for (let start = 0; start < facts.length; start += perStatement) {
      const params: unknown[] = [];
      const tuples = facts.slice(start, start + perStatement).map((f) =>
        tuple(
          pg,
          params,
          FACT_COLUMNS.map((c) => f[c]),
        ),
      );
      await tx.executeQuery(
        CompiledQuery.raw(
          `insert into report_chat_facts (${FACT_COLUMNS.join(', ')}) values ${tuples.join(', ')}
          on conflict (chat_id) do update set ${FACT_COLUMNS.filter((c) => c !== 'chat_id')
            .map((c) => `${c} = excluded.${c}`)
            .join(', ')}`,
          params,
        ),
      );
    }
  }
}

/** "(?, ?, …)" or "($n, …)", its values appended to params. */
function tuple(pg: boolean, params: unknown[], values: unknown[]): string {
  const marks = values.map((v) => {
    params.push(v);
    return pg ? `$${params.length}` : '?';
  });
  return `(${marks.join(', ')})`;
}

/** Bound parameters per statement, well below SQLite's (32,766) and PostgreSQL's (65,535) limits. */
const MAX_PARAMS = 8_000;

/** One insert of every row (in chunks under MAX_PARAMS), adding each column's sum to the row already there. */
async function upsertSums(tx: Tx, pg: boolean, table: string, key: readonly string[], columns: readonly string[], rows: Map<string, Row>): Promise<void> {
  const all = [...rows.values()];
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / (key.length + columns.length)));
  for (let start = 0; start < all.length; start += perStatement) {
    const params: unknown[] = [];
    const tuples = all.slice(start, start + perStatement).map((row) => tuple(pg, params, [...row.key, ...columns.map((c) => row.add[c] ?? 0)]));
    await tx.executeQuery(
      CompiledQuery.raw(
        `insert into ${table} (${[...key, ...columns].join(', ')}) values ${tuples.join(', ')}
        on conflict (${key.join(', ')}) do update set ${columns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`,
        params,
      ),
    );
  }
}
