/**
 * Erasing one visitor everywhere (#33, domain/erasure/): the `erasures` jobs,
 * worked off in the background in bounded batches and resumed after a
 * restart; `deliveries.visitor_id`, so the webhooks and mails about a
 * visitor's offline messages and calls (no chat) are found; indexes for the
 * lookups an erasure makes per batch (deliveries and events by chat).
 *
 * SQLite: both search indexes (migration 028) switch on FTS5's
 * `secure-delete`, so a deleted row's terms leave the index's pages instead of
 * staying there behind a delete marker until the next merge; the store opens
 * with `PRAGMA secure_delete` (db/database.ts), so the freed bytes are zeroed.
 */
import { sql } from 'kysely';
import { idColumn, timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('erasures')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // No foreign key: the visitor row goes at the end of the job, the job stays.
    .addColumn('visitor_id', 'integer', (c) => c.notNull())
    .addColumn('visitor_number', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'integer')
    .addColumn('requested_by', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('chats_total', 'integer', (c) => c.notNull())
    .addColumn('chats_erased', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('messages_total', 'integer', (c) => c.notNull())
    .addColumn('messages_erased', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('files_erased', 'integer', (c) => c.notNull().defaultTo(0))
    // How far the scan for the visitor's events of no chat (offline messages, calls) has come.
    .addColumn('events_scanned_through', 'integer', (c) => c.notNull().defaultTo(0))
    // The identifiers the integrator knows (user_token, sender.id) until visitor_erased is recorded; then null.
    .addColumn('identifiers_json', 'text')
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('updated_at', k.time, timeColumn)
    .addColumn('finished_at', k.time)
    .execute();
  await db.schema.createIndex('erasures_running').on('erasures').column('id').where(sql.ref('status'), '=', sql.lit('running')).execute();
  await db.schema.createIndex('erasures_visitor').on('erasures').columns(['account_id', 'visitor_id']).execute();
  await db.schema.alterTable('deliveries').addColumn('visitor_id', 'integer').execute();
  await db.schema.createIndex('deliveries_visitor').on('deliveries').column('visitor_id').where(sql.ref('visitor_id'), 'is not', null).execute();
  await db.schema.createIndex('deliveries_chat').on('deliveries').column('chat_id').where(sql.ref('chat_id'), 'is not', null).execute();
  await db.schema.createIndex('events_chat').on('events').column('chat_id').where(sql.ref('chat_id'), 'is not', null).execute();
  if (k.dialect === 'sqlite') {
    await sql.raw(`insert into messages_fts(messages_fts, rank) values ('secure-delete', 1)`).execute(db);
    await sql.raw(`insert into visitors_fts(visitors_fts, rank) values ('secure-delete', 1)`).execute(db);
  }
}
