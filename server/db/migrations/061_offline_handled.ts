/**
 * Offline messages can be marked handled (#36 item 16): when and by whom, both
 * null while nobody has handled it (every message before this migration). An
 * agent who is deleted leaves the mark, without its name.
 */
import type { Kysely } from 'kysely';
import type { ColumnKinds } from '../columns.js';

// Migrations must not depend on the app's evolving types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema.alterTable('offline_messages').addColumn('handled_at', k.time).execute();
  await db.schema
    .alterTable('offline_messages')
    .addColumn('handled_by', 'integer', (c) => c.references('agents.id').onDelete('set null'))
    .execute();
}
