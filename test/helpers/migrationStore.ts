/**
 * A store of its own for a migration test (server/db/migrations/*.test.ts): an
 * empty SQLite file or PostgreSQL schema, dropped after the file's tests, and a
 * Migrator over the real migrations so a test can stop at one, seed the rows
 * of that time, then migrate on.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll } from 'vitest';
import { columnKinds } from '../../server/db/columns.js';
import { dropPostgresSchema } from '../../server/db/database.js';
import { migrationsFor } from '../../server/db/migrations/index.js';
import { testDialect } from './testApp.js';

export interface MigrationStore {
  // Migrations are written against untyped tables.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>;
  /** Creates the empty store (PostgreSQL: its schema) and a Migrator over it. */
  migrator(): Promise<Migrator>;
}

export function migrationStore(): MigrationStore {
  const dialect = testDialect();
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-migration-'));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = new Kysely<any>({
    dialect:
      dialect === 'postgres'
        ? new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` }) })
        : new SqliteDialect({ database: new SqliteDatabase(path.join(dir, 'parley.db')) }),
  });
  afterAll(async () => {
    await db.destroy();
    if (dialect === 'postgres') await dropPostgresSchema(url, schema);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    db,
    async migrator() {
      if (dialect === 'postgres') await sql`create schema ${sql.id(schema)}`.execute(db);
      return new Migrator({
        db,
        provider: { getMigrations: async () => migrationsFor(columnKinds(dialect)) },
        ...(dialect === 'postgres' ? { migrationTableSchema: schema } : {}),
      });
    },
  };
}
