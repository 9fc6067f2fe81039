/**
 * Parts several migrations share, frozen with them: a released migration
 * never changes, so neither does anything here (a new schema gets its own
 * migration, with its own parts). The app's code does not import this file;
 * it keeps its own lists, which may move on.
 */
import type { CreateTableBuilder } from 'kysely';
import { timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

/** The sums report_hourly (015) and report_daily (023) hold per key, in their column order. */
export const REPORT_MEASURES = [
  'started',
  'accepted',
  'finished',
  'missed',
  'frt_count',
  'frt_sum_ms',
  'dur_count',
  'dur_sum_ms',
  'handled_ms',
  'positive',
  'negative',
] as const;

/** The first columns of every inbound_dedup table (001, 019, 050): whose message, by its external id. */
export function inboundDedupKey<C extends string>(t: CreateTableBuilder<'inbound_dedup', C>) {
  return t
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('sender_id', 'text', (c) => c.notNull())
    .addColumn('message_external_id', 'text', (c) => c.notNull());
}

type DedupTable = CreateTableBuilder<'inbound_dedup', string>;

/**
 * Makes inbound_dedup anew (019, 050: a primary key cannot be changed in place
 * on SQLite): dropped, then created with the key columns, the content hash, the
 * message id, `more`'s columns, created_at and `primaryKey`, and its created_at index.
 */
export async function remakeInboundDedup(db: AnyDb, k: ColumnKinds, primaryKey: string[], more: (t: DedupTable) => DedupTable = (t) => t): Promise<void> {
  await db.schema.dropTable('inbound_dedup').execute();
  const table: DedupTable = db.schema
    .createTable('inbound_dedup')
    .$call(inboundDedupKey)
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('message_id', 'integer');
  await more(table).addColumn('created_at', k.time, timeColumn).addPrimaryKeyConstraint('inbound_dedup_pk', primaryKey).execute();
  await db.schema.createIndex('inbound_dedup_created_at').on('inbound_dedup').column('created_at').execute();
}
