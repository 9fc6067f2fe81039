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
 * - missed: the chat was missed (domain/chats/missedChat.ts: no agent answered
 *   before it finished or within the account's missed_chat_minutes), the
 *   chats chat_missed was recorded for;
 * - first response: first_response_at − created_at;
 * - duration: finished_at − created_at, for finished chats;
 * - handled time: finished_at − accepted_at (average concurrency's numerator).
 *
 * Each share goes to the exact key and to the four "all" rows of the cube
 * (migration 015_reports_cube), and to the daily rollup of the account's zone
 * once that is built for the chat's hour (migration 023, dailyRollup.ts), so
 * reports over long ranges read few rows. A relay batch's chats are read in
 * one statement and their shares summed and written together at the batch's
 * end (rollupBatch.ts).
 */
import { sql } from 'kysely';
import { isPostgres, type Tx } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { Chat, ReportChatFactsTable } from '../../db/schema.js';
import { isMissed } from '../chats/missedChat.js';
import { RollupBatch } from './rollupBatch.js';

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
    | 'missed_at'
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
    missed: isMissed(chat) ? 1 : 0,
    frt_ms: span(chat.first_response_at, chat.created_at),
    dur_ms: finished ? span(chat.finished_at, chat.created_at) : null,
    handled_ms: finished ? (span(chat.finished_at, chat.accepted_at) ?? 0) : 0,
    positive: chat.rate === 'positive' ? 1 : 0,
    negative: chat.rate === 'negative' ? 1 : 0,
  };
}

const sameFacts = (a: Facts, b: Facts) => (Object.keys(b) as (keyof Facts)[]).every((k) => a[k] === b[k]);

/**
 * The chats' columns their facts need, with what each last added (f_*) and
 * its account's daily zone (z_*), in one statement for the batch's chats
 * (their ids as a JSON array on SQLite, an array on PostgreSQL).
 */
const chatsAndFacts = prepared(['ids'], (db, p: { ids: string | number[] }) =>
  db
    .selectFrom('chats')
    .leftJoin('report_chat_facts as f', 'f.chat_id', 'chats.id')
    .leftJoin('report_daily_zones as z', 'z.account_id', 'chats.account_id')
    .select([
      'chats.id',
      'chats.account_id',
      'chats.channel_id',
      'chats.department_id',
      'chats.accepted_by',
      'chats.status',
      'chats.created_at',
      'chats.accepted_at',
      'chats.finished_at',
      'chats.first_response_at',
      'chats.missed_at',
      'chats.rate',
      'f.chat_id as f_chat_id',
      'f.account_id as f_account_id',
      'f.hour as f_hour',
      'f.channel_id as f_channel_id',
      'f.department_id as f_department_id',
      'f.agent_id as f_agent_id',
      'f.accepted as f_accepted',
      'f.finished as f_finished',
      'f.missed as f_missed',
      'f.frt_ms as f_frt_ms',
      'f.dur_ms as f_dur_ms',
      'f.handled_ms as f_handled_ms',
      'f.positive as f_positive',
      'f.negative as f_negative',
      'z.timezone as z_timezone',
      'z.built_through as z_built_through',
    ])
    .where(
      'chats.id',
      isPostgres(db) ? '=' : 'in',
      isPostgres(db) ? sql<number>`any(cast(${p.ids} as integer[]))` : sql<number>`(select value from json_each(${p.ids}))`,
    ),
);

/**
 * Brings the rollups in line with the chats' current state (a no-op for a
 * chat when nothing it counts changed): takes back what each chat last added
 * and adds its new share, all summed in one RollupBatch and written together
 * (a few statements whatever the number of chats). Each chat is counted once
 * however many of its events the caller saw: its share depends on its current
 * state alone.
 */
export async function refreshChatReports(tx: Tx, chatIds: readonly number[]): Promise<void> {
  if (chatIds.length === 0) return;
  const rows = await chatsAndFacts.execute(tx, { ids: isPostgres(tx) ? [...chatIds] : JSON.stringify(chatIds) });
  // A deleted chat has no row and keeps its share: reports count what happened.
  const batch = new RollupBatch();
  for (const row of rows) {
    const old: Facts | undefined =
      row.f_chat_id === null
        ? undefined
        : {
            chat_id: row.f_chat_id,
            account_id: row.f_account_id!,
            hour: row.f_hour!,
            channel_id: row.f_channel_id!,
            department_id: row.f_department_id!,
            agent_id: row.f_agent_id!,
            accepted: row.f_accepted!,
            finished: row.f_finished!,
            missed: row.f_missed!,
            frt_ms: row.f_frt_ms,
            dur_ms: row.f_dur_ms,
            handled_ms: row.f_handled_ms!,
            positive: row.f_positive!,
            negative: row.f_negative!,
          };
    const next = factsOf(row);
    if (old && sameFacts(old, next)) continue;
    const zone = row.z_timezone === null ? undefined : { timezone: row.z_timezone, built_through: row.z_built_through };
    if (old) batch.addShare(old, -1, zone);
    batch.addShare(next, 1, zone);
    batch.facts.set(next.chat_id, next);
  }
  await batch.write(tx);
}
