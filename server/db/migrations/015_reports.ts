/**
 * Reports (issue 22): what makes the figures exact, and the rollups that make
 * them fast.
 *
 * - `chats.first_response_at`: when an agent first wrote to the visitor (not a
 *   private note). First response time and "missed" (finished with no reply)
 *   come from it. Filled from the stored messages.
 * - `agent_status_changes`: every change of an agent's status, so time Online
 *   and Away over any range is exact. Seeded with each agent's status now.
 * - `report_chat_facts`: per chat, what it last added to the rollups (its key
 *   and measures). A change of the chat retracts that and adds the new
 *   contribution, so the rollups stay exact whatever order things happen in
 *   (domain/reports/chatContribution.ts).
 * - `report_hourly`: per account × UTC hour in which the chat started ×
 *   channel × department (0: none) × agent who accepted it (0: none), the sums
 *   every chat figure is made of. A report sums the hours of its range, then
 *   groups them by day or hour of the report's time zone (hours are whole in
 *   every zone but the few with a half- or quarter-hour offset: there an hour
 *   counts in the local hour in which it starts).
 * - `report_hist`: the same key × metric (`frt` first response, `dur`
 *   duration) × bin: counts of chats per bin of REPORT_BIN_EDGES, from which
 *   median and 90th percentile are read.
 * - indexes on offline messages and calls by time: those are counted from
 *   their own tables (few rows next to chats).
 *
 * The bin edges are part of this schema: changing them needs a migration that
 * rebuilds report_hist. domain/reports/bins.ts holds the same list.
 */
import { sql, type CreateTableBuilder } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';
import { REPORT_MEASURES } from './frozenParts.js';

/** Seconds; bin i is [edge i, edge i+1), the last one open-ended. */
const BIN_EDGES_S = [
  0, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 420, 600, 900, 1200, 1800, 2700, 3600, 5400, 7200, 10800, 14400, 21600, 28800, 43200, 86400,
];

function binSql(column: string): string {
  const cases = BIN_EDGES_S.slice(1)
    .map((edge, i) => `when ${column} < ${edge * 1000} then ${i}`)
    .join(' ');
  return `(case ${cases} else ${BIN_EDGES_S.length - 1} end)`;
}

const KEY = ['account_id', 'hour', 'channel_id', 'department_id', 'agent_id'] as const;

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema.alterTable('chats').addColumn('first_response_at', k.time).execute();
  await sql`update chats set first_response_at = (select min(m.created_at) from messages m where m.chat_id = chats.id and m.author = 'agent' and m.internal = 0)`.execute(
    db,
  );

  await db.schema
    .createTable('agent_status_changes')
    .addColumn('id', 'integer', (c) => (k.dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('at', k.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_status_changes_account_at').on('agent_status_changes').columns(['account_id', 'at']).execute();
  await db.schema.createIndex('agent_status_changes_agent_at').on('agent_status_changes').columns(['agent_id', 'at']).execute();
  const now = Date.now();
  await sql`insert into agent_status_changes (account_id, agent_id, status, at) select account_id, id, status, ${now} from agents where status <> 'offline'`.execute(
    db,
  );

  await db.schema
    .createTable('report_chat_facts')
    .addColumn('chat_id', 'integer', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('hour', k.time, (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull())
    .addColumn('department_id', 'integer', (c) => c.notNull())
    .addColumn('agent_id', 'integer', (c) => c.notNull())
    .addColumn('accepted', 'integer', (c) => c.notNull())
    .addColumn('finished', 'integer', (c) => c.notNull())
    .addColumn('missed', 'integer', (c) => c.notNull())
    .addColumn('frt_ms', k.time)
    .addColumn('dur_ms', k.time)
    .addColumn('handled_ms', k.time, (c) => c.notNull())
    .addColumn('positive', 'integer', (c) => c.notNull())
    .addColumn('negative', 'integer', (c) => c.notNull())
    .execute();

  let hourly: CreateTableBuilder<string, string> = db.schema.createTable('report_hourly');
  for (const col of KEY) hourly = hourly.addColumn(col, col === 'hour' ? k.time : 'integer', (c) => c.notNull());
  for (const col of REPORT_MEASURES) hourly = hourly.addColumn(col, k.time, (c) => c.notNull().defaultTo(0));
  await hourly.addPrimaryKeyConstraint('report_hourly_pk', [...KEY]).execute();
  // The primary key serves the unfiltered report; these serve one filter each.
  for (const dim of ['channel_id', 'department_id', 'agent_id'] as const)
    await db.schema.createIndex(`report_hourly_${dim}`).on('report_hourly').columns(['account_id', dim, 'hour']).execute();

  let hist: CreateTableBuilder<string, string> = db.schema.createTable('report_hist');
  for (const col of KEY) hist = hist.addColumn(col, col === 'hour' ? k.time : 'integer', (c) => c.notNull());
  await hist
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('bin', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_hist_pk', [...KEY, 'metric', 'bin'])
    .execute();
  for (const dim of ['channel_id', 'department_id', 'agent_id'] as const)
    await db.schema.createIndex(`report_hist_${dim}`).on('report_hist').columns(['account_id', dim, 'hour']).execute();

  await db.schema.createIndex('offline_messages_account_created').on('offline_messages').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('calls_account_created').on('calls').columns(['account_id', 'created_at']).execute();

  await backfill(db);
}

/** The rollups of the chats stored before this migration, by the rules of domain/reports/chatContribution.ts. */
async function backfill(db: AnyDb): Promise<void> {
  await sql
    .raw(
      `insert into report_chat_facts (chat_id, account_id, hour, channel_id, department_id, agent_id, accepted, finished, missed, frt_ms, dur_ms, handled_ms, positive, negative)
       select id, account_id, created_at - created_at % 3600000, channel_id, coalesce(department_id, 0), coalesce(accepted_by, 0),
         case when accepted_at is null then 0 else 1 end,
         case when status = 'finished' then 1 else 0 end,
         case when status = 'finished' and first_response_at is null then 1 else 0 end,
         case when first_response_at is null then null when first_response_at < created_at then 0 else first_response_at - created_at end,
         case when status <> 'finished' or finished_at is null then null when finished_at < created_at then 0 else finished_at - created_at end,
         case when status = 'finished' and finished_at is not null and accepted_at is not null and finished_at > accepted_at then finished_at - accepted_at else 0 end,
         case when rate = 'positive' then 1 else 0 end,
         case when rate = 'negative' then 1 else 0 end
       from chats`,
    )
    .execute(db);
  const key = KEY.join(', ');
  await sql
    .raw(
      `insert into report_hourly (${key}, ${REPORT_MEASURES.join(', ')})
       select ${key}, count(*), sum(accepted), sum(finished), sum(missed),
         sum(case when frt_ms is null then 0 else 1 end), coalesce(sum(frt_ms), 0),
         sum(case when dur_ms is null then 0 else 1 end), coalesce(sum(dur_ms), 0),
         sum(handled_ms), sum(positive), sum(negative)
       from report_chat_facts group by ${key}`,
    )
    .execute(db);
  for (const [metric, column] of [
    ['frt', 'frt_ms'],
    ['dur', 'dur_ms'],
  ] as const) {
    await sql
      .raw(
        `insert into report_hist (${key}, metric, bin, count)
         select ${key}, '${metric}', ${binSql(column)}, count(*) from report_chat_facts where ${column} is not null
         group by ${key}, ${binSql(column)}`,
      )
      .execute(db);
  }
}
