/**
 * Event types given up on (#17 item 2): one row per account and event type
 * whose delivery failed its whole schedule while the receiver answered other
 * event types (server/eventWebhooks/giveUp.ts). The row keeps the receiver's
 * last answer (status code, the start of its body, the error) for the admin
 * app, and counts the events not sent since. Deleting the row sends the type
 * again.
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('event_webhook_given_up')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // The delivery that failed; no foreign key: retention may delete it, the record stays.
    .addColumn('delivery_id', 'integer')
    .addColumn('status_code', 'integer')
    .addColumn('response', 'text')
    .addColumn('error', 'text')
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('given_up_at', k.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('event_webhook_given_up_pk', ['account_id', 'event_type'])
    .execute();
}
