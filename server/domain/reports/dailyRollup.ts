/**
 * The daily rollup (migration 023): per local day of the account's time zone,
 * everything report_hourly and report_hist hold for the day's UTC hours, in
 * one row per key with the histogram bins as columns, and the whole cube of
 * "all" (-1) rows. Reports over months read it instead of hours.
 *
 * Kept two ways, which give the same rows:
 * - a chat's change adds to it in the relay's transaction (rollupBatch.ts,
 *   from chatContribution.ts), for the hours before built_through;
 * - `buildDailyStep` (re)builds it from the hourly rollups, a few weeks per
 *   transaction, when the account has none yet or its zone changed. Until the
 *   build is through, reports read hours (exact, slower). On PostgreSQL each
 *   step holds the relay's lock, so no relay transaction runs in between and
 *   an hour is never counted twice or missed.
 *
 * A UTC hour counts in the local day in which it starts (as report_hourly is
 * read), so a daily row equals the sum of its hours in every zone.
 */
import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.js';
import { callbackOf } from '../settings/getSettings.js';
import { BIN_EDGES_S } from './bins.js';
import { DAY, HOUR, isValidZone, localMidnight, localMsSql, offsetAt, offsetSegments } from './zone.js';

export const BINS = BIN_EDGES_S.length;
/** The sums of report_hourly and report_daily: counts of chats, then what the figures are made of. */
const CHAT_COUNTS = ['started', 'accepted', 'finished', 'missed'] as const;
export const MEASURES = [...CHAT_COUNTS, 'frt_count', 'frt_sum_ms', 'dur_count', 'dur_sum_ms', 'handled_ms', 'positive', 'negative'] as const;
export const BIN_COLUMNS = (['frt', 'dur'] as const).flatMap((metric) => Array.from({ length: BINS }, (_, bin) => `${metric}_${bin}`));
const DIMS = ['channel_id', 'department_id', 'agent_id'] as const;
const ALL = -1;

export interface DailyZone {
  timezone: string;
  /** UTC ms: the rows cover the hours before it; null: every hour. */
  built_through: number | null;
}

/** The zone an account's reports default to: that of its callback hours (UTC without settings, or a zone this runtime does not know). */
export function accountZone(settings: { callback_json: string } | undefined): string {
  const zone = settings ? callbackOf(settings).timezone : 'UTC';
  return isValidZone(zone) ? zone : 'UTC';
}

/** The local day (days since 1970-01-01 in the zone) in which a UTC hour starts. */
export const dayOf = (zone: string, hour: number): number => Math.floor((hour + offsetAt(zone, hour)) / DAY);
const dateOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
/** The first UTC hour starting in the local day. */
const firstHourOf = (zone: string, day: number) => Math.ceil(localMidnight(zone, dateOf(day)) / HOUR) * HOUR;

export async function dailyZoneOf(db: Executor, accountId: number): Promise<DailyZone | undefined> {
  return db.selectFrom('report_daily_zones').select(['timezone', 'built_through']).where('account_id', '=', accountId).executeTakeFirst();
}

const sum = (cols: readonly string[]) => sql.join(cols.map((c) => sql`sum(${sql.id(c)})`));
const EXACT = sql`channel_id <> ${sql.lit(ALL)} and department_id <> ${sql.lit(ALL)} and agent_id <> ${sql.lit(ALL)}`;

/** Writes the daily rows of local days [d0, d1) from the hourly rollups of their hours [h0, h1): exact keys, then the cube from them. */
async function buildDays(tx: Tx, accountId: number, zone: string, d0: number, d1: number, h0: number, h1: number): Promise<void> {
  const day = sql`(${localMsSql(sql`hour`, offsetSegments(zone, h0, h1))} / ${sql.lit(DAY)})`;
  const zeros = (cols: readonly string[]) => sql.join(cols.map((c) => sql`0 as ${sql.id(c)}`));
  const pivot = sql.join(
    BIN_COLUMNS.map((col) => {
      const [metric, bin] = col.split('_');
      return sql`case when metric = ${sql.lit(metric)} and bin = ${sql.lit(Number(bin))} then count else 0 end as ${sql.id(col)}`;
    }),
  );
  const all = [...MEASURES, ...BIN_COLUMNS];
  const inHours = sql`account_id = ${accountId} and hour >= ${h0} and hour < ${h1} and ${EXACT}`;
  await sql`insert into report_daily (account_id, day, channel_id, department_id, agent_id, ${sql.join(all.map((c) => sql.id(c)))})
    select account_id, day, channel_id, department_id, agent_id, ${sum(all)} from (
      select account_id, ${day} as day, channel_id, department_id, agent_id, ${sql.join(MEASURES.map((c) => sql.id(c)))}, ${zeros(BIN_COLUMNS)}
      from report_hourly where ${inHours}
      union all
      select account_id, ${day} as day, channel_id, department_id, agent_id, ${zeros(MEASURES)}, ${pivot}
      from report_hist where ${inHours}
    ) x group by account_id, day, channel_id, department_id, agent_id having sum(started) <> 0`.execute(tx);
  for (let cut = 1; cut < 8; cut++) {
    const dims = DIMS.map((d, i) => (cut & (1 << i) ? sql.lit(ALL) : sql.id(d)));
    const group = DIMS.filter((_, i) => !(cut & (1 << i))).map((d) => sql.id(d));
    await sql`insert into report_daily (account_id, day, channel_id, department_id, agent_id, ${sql.join(all.map((c) => sql.id(c)))})
      select account_id, day, ${sql.join(dims)}, ${sum(all)} from report_daily
      where account_id = ${accountId} and day >= ${d0} and day < ${d1} and ${EXACT}
      group by ${sql.join([sql`account_id`, sql`day`, ...group])}`.execute(tx);
  }
}

/**
 * One step of building the account's daily rows in `zone`: starts over when the
 * zone differs (deleting the account's daily rows), else builds the next
 * `chunkDays` local days from the hourly rollups. Returns true when the rows are complete. The caller runs it in a
 * transaction the relay cannot interleave with (dailyRollupWorker.ts).
 */
export async function buildDailyStep(tx: Tx, accountId: number, zone: string, chunkDays: number): Promise<boolean> {
  const row = await dailyZoneOf(tx, accountId);
  // Two queries: SQLite reads min() or max() alone from the index, both together by a scan.
  const edge = async (fn: 'min' | 'max') => {
    const r = await tx
      .selectFrom('report_hourly')
      .select((eb) => eb.fn[fn]('hour').as('hour'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return r?.hour === null || r?.hour === undefined ? null : Number(r.hour);
  };
  const first = await edge('min');
  const last = await edge('max');
  if (!row || row.timezone !== zone) {
    // Start over: the old zone's rows go at once (one statement; their days are other days), then
    // the days are built from the first one on, into an empty range.
    const start = first === null ? null : firstHourOf(zone, dayOf(zone, first));
    const next = { timezone: zone, built_through: start };
    await tx
      .insertInto('report_daily_zones')
      .values({ account_id: accountId, ...next })
      .onConflict((oc) => oc.column('account_id').doUpdateSet(next))
      .execute();
    await tx.deleteFrom('report_daily').where('account_id', '=', accountId).execute();
    return start === null;
  }
  if (row.built_through === null) return true;
  const h0 = Number(row.built_through);
  const d0 = dayOf(zone, h0);
  const d1 = d0 + chunkDays;
  const h1 = firstHourOf(zone, d1);
  const done = last === null || h1 > last;
  // Days from d0 on hold no row: the relay adds only to hours before built_through.
  await buildDays(tx, accountId, zone, d0, d1, h0, h1);
  await tx
    .updateTable('report_daily_zones')
    .set({ built_through: done ? null : h1 })
    .where('account_id', '=', accountId)
    .execute();
  return done;
}
