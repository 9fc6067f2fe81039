/**
 * Canned responses (issue 6): ready-made replies an admin writes once and
 * agents insert with a `/shortcut` in the composer. A shortcut is unique
 * within its account.
 */
import { idColumn, timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('canned_responses')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('shortcut', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('updated_at', k.time, timeColumn)
    .addUniqueConstraint('canned_responses_account_shortcut', ['account_id', 'shortcut'])
    .execute();
}
