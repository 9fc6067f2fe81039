/**
 * Migration 006 on a store that already has events: the relay's cursor starts
 * at the newest row marked relayed, so the rows after it are relayed next and
 * none twice; the per-row mark and its index are gone.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { testDialect } from '../../../test/helpers/testApp.js';
import { columnKinds } from '../columns.js';
import { dropPostgresSchema } from '../database.js';
import { migrationsFor } from './index.js';

const dialect = testDialect();
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-migration-'));

// Migrations are written against untyped tables.
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

it('starts the cursor at the newest relayed event and drops the per-row mark', async () => {
  if (dialect === 'postgres') await sql`create schema ${sql.id(schema)}`.execute(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationsFor(columnKinds(dialect)) },
    ...(dialect === 'postgres' ? { migrationTableSchema: schema } : {}),
  });
  expect((await migrator.migrateTo('005_retention')).error).toBeUndefined();

  const { id: accountId } = await db.insertInto('accounts').values({ name: 'a', created_at: 0 }).returning('id').executeTakeFirstOrThrow();
  const event = async (relayed: 0 | 1) =>
    (
      await db
        .insertInto('events')
        .values({ account_id: accountId, type: 'agent.updated', data_json: '{}', created_at: 0, relayed })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id as number;
  await event(1);
  const lastRelayed = await event(1);
  await event(0);

  expect((await migrator.migrateToLatest()).error).toBeUndefined();
  expect(await db.selectFrom('relay_cursor').selectAll().execute()).toEqual([{ id: 1, relayed_through: lastRelayed }]);
  await expect(db.selectFrom('events').select('relayed').execute()).rejects.toThrow(/relayed/);
  // One row only.
  await expect(db.insertInto('relay_cursor').values({ id: 2, relayed_through: 0 }).execute()).rejects.toThrow();
});
