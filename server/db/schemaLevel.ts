/**
 * The schema's migration level (GET /api/v1/version, docs/DATA.md): the
 * migrations this database has run, by name. Kysely keeps them in its own
 * table (kysely_migration) beside Parley's.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface SchemaLevel {
  /** The highest migration name applied (names sort by number: 057_audit_log). */
  latest: string | null;
  applied: number;
}

export async function schemaLevel(db: Kysely<Database>): Promise<SchemaLevel> {
  const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const names = rows.rows.map((r) => r.name).sort();
  return { latest: names.at(-1) ?? null, applied: names.length };
}
