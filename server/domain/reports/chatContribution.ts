/**
 * Keeps one chat's share of the rollups exact. A chat adds to one key (UTC
 * hour it started, channel, department, agent who accepted it) a set of
 * measures computed from its current state alone; what it added last is kept
 * in report_chat_facts. On any change the old share is taken back and the new
 * one added, so the result does not depend on how often or in which order the
 * chat's events are seen (a replay changes nothing).
 *
 * Definitions (docs/REPORTS.md):
 * - accepted: an agent accepted it (pressed Reply, wrote, or had it transferred);
 * - missed: finished while no agent had written to the visitor;
 * - first response: first_response_at − created_at;
 * - duration: finished_at − created_at, for finished chats;
 * - handled time: finished_at − accepted_at (average concurrency's numerator).
 *
 * Each share goes to the exact key and to the four "all" rows of the cube
 * (migration 015_reports_cube), and to the daily rollup of the account's zone
 * once that is built for the chat's hour (migration 023, dailyRollup.ts), so
 * reports over long ranges read few rows.
 */
import { sql } from 'kysely';
import type { Tx } from '../../db/database.js';
import type { Chat, ReportChatFactsTable, ReportMeasures } from '../../db/schema.js';
import { binOf } from './bins.js';
import { addDaily, coversHour, dailyZoneOf } from './dailyRollup.js';

type Facts = ReportChatFactsTable;
const HOUR = 3_600_000;

export function factsOf(
  chat: Pick<
    Chat,
    | 'id'
    | 'account_id'
    | 'channel_id'
    | 'department_id'
    | 'accepted_by'
    | 'status'
    | 'created_at'
    | 'accepted_at'
    | 'finished_at'
    | 'first_response_at'
    | 'rate'
  >,
): Facts {
  const finished = chat.status === 'finished';
  const span = (end: number | null, start: number | null) => (end === null || start === null ? null : Math.max(0, end - start));
  return {
    chat_id: chat.id,
    account_id: chat.account_id,
    hour: chat.created_at - (chat.created_at % HOUR),
    channel_id: chat.channel_id,
    department_id: chat.department_id ?? 0,
    agent_id: chat.accepted_by ?? 0,
    accepted: chat.accepted_at === null ? 0 : 1,
    finished: finished ? 1 : 0,
    missed: finished && chat.first_response_at === null ? 1 : 0,
    frt_ms: span(chat.first_response_at, chat.created_at),
    dur_ms: finished ? span(chat.finished_at, chat.created_at) : null,
    handled_ms: finished ? (span(chat.finished_at, chat.accepted_at) ?? 0) : 0,
    positive: chat.rate === 'positive' ? 1 : 0,
    negative: chat.rate === 'negative' ? 1 : 0,
  };
}

function measuresOf(f: Facts, sign: 1 | -1): ReportMeasures {
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

const KEY = ['account_id', 'hour', 'channel_id', 'department_id', 'agent_id'] as const;
const sameFacts = (a: Facts, b: Facts) => (Object.keys(a) as (keyof Facts)[]).every((k) => a[k] === b[k]);

/** Migration 015_reports_cube: beside its exact key, a chat counts in the "all" (-1) rows of each dimension left out. */
const ALL = -1;
function keysOf(f: Facts): Array<Pick<Facts, 'account_id' | 'hour' | 'channel_id' | 'department_id' | 'agent_id'>> {
  const k = (channel_id: number, department_id: number, agent_id: number) => ({ account_id: f.account_id, hour: f.hour, channel_id, department_id, agent_id });
  return [k(f.channel_id, f.department_id, f.agent_id), k(ALL, ALL, ALL), k(f.channel_id, ALL, ALL), k(ALL, f.department_id, ALL), k(ALL, ALL, f.agent_id)];
}

async function addMeasures(tx: Tx, f: Facts, sign: 1 | -1): Promise<void> {
  for (const key of keysOf(f)) await addMeasuresAt(tx, f, key, sign);
}

async function addMeasuresAt(tx: Tx, f: Facts, key: ReturnType<typeof keysOf>[number], sign: 1 | -1): Promise<void> {
  const m = measuresOf(f, sign);
  await tx
    .insertInto('report_hourly')
    .values({ ...key, ...m })
    .onConflict((oc) =>
      oc.columns([...KEY]).doUpdateSet((eb) => {
        const set: Record<string, unknown> = {};
        for (const col of Object.keys(m) as (keyof ReportMeasures)[]) set[col] = sql`${eb.ref(`report_hourly.${col}`)} + ${eb.ref(`excluded.${col}`)}`;
        return set;
      }),
    )
    .execute();
  for (const [metric, ms] of [
    ['frt', f.frt_ms],
    ['dur', f.dur_ms],
  ] as const) {
    if (ms === null) continue;
    await tx
      .insertInto('report_hist')
      .values({ ...key, metric, bin: binOf(ms), count: sign })
      .onConflict((oc) => oc.columns([...KEY, 'metric', 'bin']).doUpdateSet({ count: sql`report_hist.count + excluded.count` }))
      .execute();
  }
}

/** Brings the rollups in line with the chat's current state (a no-op when nothing it counts changed). */
export async function refreshChatReport(tx: Tx, chatId: number): Promise<void> {
  const chat = await tx
    .selectFrom('chats')
    .select([
      'id',
      'account_id',
      'channel_id',
      'department_id',
      'accepted_by',
      'status',
      'created_at',
      'accepted_at',
      'finished_at',
      'first_response_at',
      'rate',
    ])
    .where('id', '=', chatId)
    .executeTakeFirst();
  const old = await tx.selectFrom('report_chat_facts').selectAll().where('chat_id', '=', chatId).executeTakeFirst();
  if (!chat) return; // a deleted chat keeps its share: reports count what happened
  const next = factsOf(chat);
  if (old && sameFacts(old, next)) return;
  const zone = await dailyZoneOf(tx, next.account_id);
  if (old) {
    await addMeasures(tx, old, -1);
    if (coversHour(zone, old.hour)) await addDaily(tx, zone, old, -1);
  }
  await addMeasures(tx, next, 1);
  if (coversHour(zone, next.hour)) await addDaily(tx, zone, next, 1);
  if (old) await tx.updateTable('report_chat_facts').set(next).where('chat_id', '=', chatId).execute();
  else await tx.insertInto('report_chat_facts').values(next).execute();
}
