/**
 * Migrations are not stopped by another program's schema being dropped while
 * they look for their tables (postgres project only). The race is made
 * deterministic: a REPEATABLE READ transaction keeps a snapshot in which the
 * dropped schema still exists, as a query that started just before the DROP
 * does. Kysely's stock introspector then fails on that schema's name; the
 * one the migrations use (migrationDialect.ts) reads the migrated schema's
 * tables only. (The store of beforeAll is migrated through it.)
 */
import crypto from 'node:crypto';
import { Kysely, PostgresDialect, PostgresIntrospector } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, testDialect, type TestStore } from '../../test/helpers/testApp.js';
import { dropPostgresSchema, openStore } from './database.js';
import { MigrationPostgresDialect } from './migrationDialect.js';

describe.runIf(testDialect() === 'postgres')('migrations while another schema is dropped', () => {
  let store: TestStore;
  let url: string;
  let schema: string;
  const victim = `drop_victim_${crypto.randomBytes(4).toString('hex')}`;
  const clients: pg.Client[] = [];

  async function client(searchPath: string): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: url, options: `-c search_path=${searchPath}` });
    await c.connect();
    clients.push(c);
    return c;
  }

  /** A Kysely on one open session (its transaction and snapshot), through `Dialect`. */
  function on(session: pg.Client, Dialect: typeof PostgresDialect): Kysely<unknown> {
    const pool = { connect: async () => Object.assign(session, { release: () => {} }), end: async () => {} };
    return new Kysely<unknown>({ dialect: new Dialect({ pool }) });
  }

  /** A session whose snapshot still holds the victim schema, which another session has just dropped. */
  async function snapshotBeforeDrop(): Promise<pg.Client> {
    const admin = await client('public');
    await admin.query(`create schema "${victim}"; create table "${victim}".kysely_migration (name text)`);
    const session = await client(schema);
    await session.query('begin isolation level repeatable read');
    await session.query('select count(*) from pg_catalog.pg_namespace');
    await admin.query(`drop schema "${victim}" cascade`);
    return session;
  }

  beforeAll(async () => {
    store = freshStore();
    url = store.env.DATABASE_URL;
    schema = store.env.DATABASE_SCHEMA;
    await (await openStore({ databaseUrl: url, databaseSchema: schema, dataDir: store.env.DATA_DIR })).close();
  });

  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => {});
    await dropPostgresSchema(url, victim).catch(() => {});
    await store?.cleanup();
  });

  it("fails with Kysely's stock introspector (the race this file guards against)", async () => {
    const session = await snapshotBeforeDrop();
    try {
      await expect(new PostgresIntrospector(on(session, PostgresDialect)).getTables({ withInternalKyselyTables: true })).rejects.toMatchObject({
        code: '3F000',
      });
    } finally {
      await session.query('rollback');
    }
  });

  it("finds the migrated schema's tables, and only those, with the migrations' introspector", async () => {
    const session = await snapshotBeforeDrop();
    try {
      const tables = await on(session, MigrationPostgresDialect).introspection.getTables();
      expect(tables.length).toBeGreaterThan(10);
      expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([schema]));
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['kysely_migration', 'kysely_migration_lock', 'messages', 'chats']));
    } finally {
      await session.query('rollback');
    }
  });
});
