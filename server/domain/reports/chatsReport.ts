/**
 * Chats over time: started, accepted, missed, offline messages and callback
 * requests per bucket, with totals for the range and for the previous period.
 * Chats are counted in the bucket in which they started (a chat accepted or
 * missed later still counts where it began); offline messages and callbacks
 * when they were sent. Offline messages and callbacks belong to no department
 * or agent: with those filters they are 0.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { bucketSql, listBuckets, num, rollupOf, whereOf, type Bucket } from './buckets.js';
import type { Period, ReportScope } from './scope.js';

export interface ChatCounts {
  started: number;
  accepted: number;
  missed: number;
  offline_messages: number;
  callbacks: number;
}

export interface ChatsReport {
  series: (Bucket & ChatCounts)[];
  totals: ChatCounts;
  previous: ChatCounts;
  by_channel: ({ channel_id: number } & ChatCounts)[];
}

const zero = (): ChatCounts => ({ started: 0, accepted: 0, missed: 0, offline_messages: 0, callbacks: 0 });

function add(into: ChatCounts, from: Partial<ChatCounts>): void {
  for (const k of Object.keys(into) as (keyof ChatCounts)[]) into[k] += from[k] ?? 0;
}

interface Row {
  b: number;
  channel_id: number;
  counts: Partial<ChatCounts>;
}

/** The chat, offline-message and callback counts of a period, per bucket and channel. */
async function rowsOf(db: Db, scope: ReportScope, period: Period, bucketed: boolean): Promise<Row[]> {
  const rows: Row[] = [];
  const src = rollupOf(scope, period, { bucketed, groupBy: 'channel' });
  const chats = await sql<{ b: unknown; channel_id: number; started: unknown; accepted: unknown; missed: unknown }>`
    select ${bucketed ? src.bucket : sql`0`} as b, r.channel_id, sum(r.started) as started, sum(r.accepted) as accepted, sum(r.missed) as missed
    from ${src.table} r
    where ${src.where}
    group by 1, 2`.execute(db);
  for (const r of chats.rows)
    rows.push({ b: num(r.b), channel_id: r.channel_id, counts: { started: num(r.started), accepted: num(r.accepted), missed: num(r.missed) } });
  if (scope.departmentId !== null || scope.agentId !== null) return rows;
  for (const [table, field, extra] of [
    ['offline_messages', 'offline_messages', sql`true`],
    ['calls', 'callbacks', sql`r.type = 'callback' and r.channel_id is not null`],
  ] as const) {
    const result = await sql<{ b: unknown; channel_id: number; n: unknown }>`
      select ${bucketSql(scope, period, sql`r.created_at`)} as b, r.channel_id, count(*) as n
      from ${sql.table(table)} r
      where ${whereOf(scope, period, 'created_at')} and ${extra}
      group by 1, 2`.execute(db);
    for (const r of result.rows) rows.push({ b: num(r.b), channel_id: r.channel_id, counts: { [field]: num(r.n) } });
  }
  return rows;
}

export async function chatsReport(db: Db, scope: ReportScope): Promise<ChatsReport> {
  const [current, previous] = await Promise.all([rowsOf(db, scope, scope.current, true), rowsOf(db, scope, scope.previous, false)]);
  const byBucket = new Map<number, ChatCounts>();
  const byChannel = new Map<number, ChatCounts>();
  const totals = zero();
  for (const row of current) {
    for (const [map, key] of [
      [byBucket, row.b],
      [byChannel, row.channel_id],
    ] as const) {
      let c = map.get(key);
      if (!c) map.set(key, (c = zero()));
      add(c, row.counts);
    }
    add(totals, row.counts);
  }
  const prev = zero();
  for (const row of previous) add(prev, row.counts);
  return {
    series: listBuckets(scope, scope.current).map((b) => ({ ...b, ...(byBucket.get(b.key) ?? zero()) })),
    totals,
    previous: prev,
    by_channel: [...byChannel.entries()].sort((a, b) => a[0] - b[0]).map(([channel_id, c]) => ({ channel_id, ...c })),
  };
}
