/**
 * The audit log (#33, docs/DATA.md "Audit log"): who did what to the account
 * and when, from which address — exports, erasures, settings, channels,
 * agents, password resets, sign-in throttle clears. One row per action; no
 * personal data of visitors beyond ids. Kept AUDIT_RETENTION_DAYS.
 */
import { idColumn, timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    // Null: done from the server's command line (backup, restore), or before anyone signed in (a forgotten password).
    .addColumn('agent_id', 'integer')
    // The name at the time: the row still says who after the agent is renamed.
    .addColumn('agent_name', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('address', 'text')
    .addColumn('created_at', k.time, timeColumn)
    .execute();
  await db.schema.createIndex('audit_log_account').on('audit_log').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('audit_log_created_at').on('audit_log').column('created_at').execute();
}
