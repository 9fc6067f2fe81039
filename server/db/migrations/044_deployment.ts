/**
 * The deployment's own identity (security #31): one row holding a random id,
 * made once and never changed, so every instance of one deployment (which
 * share this database) and no other deployment names its Redis keys and
 * channels with it (realtime/namespace.ts). Before, the key prefix was derived
 * from where the database lives (the SQLite file's path, PostgreSQL's cluster
 * id + database + schema), which two containers with `DATA_DIR=/data`, or two
 * clusters whose role may not read pg_control_system(), have in common.
 *
 * The row is part of the database, so it survives restarts and a restore of
 * a backup of this database. The id itself is written by db/deploymentId.ts
 * on first use (an insert that ignores a row already there), not here: a
 * random value in a migration would differ on each dialect's test of it, and
 * the writer is safe when several instances start at once.
 */
import { sql } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('deployment')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('deployment_id', 'text', (c) => c.notNull())
    .addColumn('created_at', k.time, (c) => c.notNull())
    .addCheckConstraint('deployment_one_row', sql`id = 1`)
    .execute();
}
