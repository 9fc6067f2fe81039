/**
 * The store: a Kysely instance on SQLite (better-sqlite3, the embedded default)
 * or PostgreSQL (pg, when DATABASE_URL is set), with migrations applied at open.
 */
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Config } from '../config/config.js';
import { columnKinds, type DialectName } from './columns.js';
import { migrationsFor } from './migrations/index.js';
import { useNamedStatements } from './pgStatements.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or an open transaction: queries accept both. */
export type Executor = Db | Tx;

export interface Store {
  readonly db: Db;
  readonly dialect: DialectName;
  close(): Promise<void>;
}

const INT8_OID = 20;

export async function openStore(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): Promise<Store> {
  const store = config.databaseUrl ? await openPostgres(config.databaseUrl, config.databaseSchema) : openSqlite(config.dataDir);
  try {
    await migrate(store, config.databaseSchema);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

function openSqlite(dataDir: string): Store {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = new SqliteDatabase(path.join(dataDir, 'parley.db'));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs more than
 * running most of ours. Statements are reusable (one connection, synchronous
 * execution), so they are cached by SQL text, the oldest dropped past a bound.
 */
function withStatementCache(file: SqliteDatabase.Database, max = 500): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = (source: string): SqliteDatabase.Statement => {
    let stmt = cache.get(source);
    if (!stmt) {
      stmt = file.prepare(source);
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(source, stmt);
    }
    return stmt;
  };
  return new Proxy(file, {
    get(target, prop, receiver) {
      if (prop === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function openPostgres(url: string, schema: string | null): Promise<Store> {
  if (schema) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: schema ? `-c search_path=${schema}` : undefined,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  // Nor one checked out between two queries (the pool drops its own listener while a client is
  // out): a restart ends its session (57P01) and pg emits 'error' on the client. The next query
  // on it then fails (503) and the pool discards it on release.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    useNamedStatements(client);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

async function migrate(store: Store, schema: string | null): Promise<void> {
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrationsFor(columnKinds(store.dialect)) },
    ...(store.dialect === 'postgres' && schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** Drops a PostgreSQL schema (tests clean up after themselves with it). */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Whether queries of this executor go to PostgreSQL (for the few statements written per dialect). */
export function isPostgres(executor: Executor): boolean {
  return executor.getExecutor().adapter instanceof PostgresAdapter;
}

/** Runs fn in a transaction. */
export function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(fn);
}

/** A cheap round trip, for readiness checks. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
