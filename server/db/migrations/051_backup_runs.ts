/**
 * Scheduled backups (issue #33, docs/DATA.md): one row per scheduled backup,
 * its outcome shown in Admin → System. `scheduled_for` is the start of the
 * interval the backup belongs to (BACKUP_INTERVAL_HOURS, counted from the
 * epoch); it is unique, so when several instances see the same backup fall
 * due, only the one whose insert wins takes it (server/backup/scheduled.ts).
 */
import { idColumn, timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('backup_runs')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('scheduled_for', k.time, (c) => c.notNull().unique())
    .addColumn('started_at', k.time, timeColumn)
    .addColumn('finished_at', k.time)
    // running | ok | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('file', 'text')
    .addColumn('size_bytes', k.time)
    .addColumn('chats', k.time)
    .addColumn('messages', k.time)
    .addColumn('error', 'text')
    .execute();
}
