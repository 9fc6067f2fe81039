/**
 * A widget's appearance and language (issue #18): what the visitor reads
 * (title, greeting, away and offline texts, launcher text), where and how the
 * launcher shows (side, offsets, round button or label), the logo and the
 * language. One JSON object per channel, `{}` = the defaults
 * (domain/channels/appearance.ts cleans and fills it).
 */
import { sql } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema
    .alterTable('channels')
    .addColumn('appearance_json', 'text', (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
}
