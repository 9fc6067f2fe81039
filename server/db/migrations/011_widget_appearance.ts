/**
 * A widget's appearance and language (issue #18): what the visitor reads
 * (title, greeting, away and offline texts, launcher text), where and how the
 * launcher shows (side, offsets, round button or label), the logo and the
 * language. One JSON object per channel, `{}` = the defaults
 * (domain/channels/appearance.ts cleans and fills it).
 */
import { sql, type Kysely } from 'kysely';
import type { ColumnKinds } from '../columns.js';

// Migrations must not depend on the app's evolving types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema
    .alterTable('channels')
    .addColumn('appearance_json', 'text', (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
}
