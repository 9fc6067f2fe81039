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
import { createBackup } from '../backup/createBackup.js';
import { parleyVersion } from '../backup/manifest.js';
import { columnKinds, type DialectName } from './columns.js';
import { MigrationPostgresDialect } from './migrationDialect.js';
import { migrationsFor } from './migrations/index.js';
import { useNamedStatements } from './pgStatements.js';
import { closeAfterReadTimeout, poolTimeouts, type DbTimeouts } from './pgTimeouts.js';
import type { Database } from './schema.js';
import { explainStoreStart } from './startErrors.js';
import { startWalCheckpointer } from './walCheckpointer.js';
import { isTransient, retryTransient } from './transient.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or an open transaction: queries accept both. */
export type Executor = Db | Tx;

export interface Store {
  readonly db: Db;
  readonly dialect: DialectName;
  /** SQLite: the one connection behind db, for backups through it (server/backup/sqliteCopy.ts). */
  readonly sqlite?: SqliteDatabase.Database;
  close(): Promise<void>;
}

const INT8_OID = 20;

type StoreConfig = Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'> & Partial<DbTimeouts> & Partial<Pick<Config, 'sqliteSynchronous'>>;

export async function openStore(config: StoreConfig): Promise<Store> {
  if (config.databaseUrl) {
    await migratePostgres(config.databaseUrl, config.databaseSchema, config);
    return openPostgres(config.databaseUrl, config.databaseSchema, config);
  }
  const store = openSqlite(config.dataDir, config.sqliteSynchronous ?? 'normal');
  try {
    await backupBeforeMigrations(store, config.dataDir);
    await migrate(store.db, 'sqlite', null);
  } catch (err) {
    await store.close();
    throw explainStoreStart(err, config.dataDir, 'open') ?? err;
  }
  return store;
}

function openSqlite(dataDir: string, synchronous: 'normal' | 'full'): Store {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    throw explainStoreStart(err, dataDir, 'create') ?? err;
  }
  let file: SqliteDatabase.Database | null = null;
  try {
    file = new SqliteDatabase(path.join(dataDir, 'parley.db'));
    file.pragma('journal_mode = WAL');
    // NORMAL (the default) survives a crash of the process but may lose the last commits on a
    // power loss or an OS crash; FULL syncs every commit (SQLITE_SYNCHRONOUS, docs/CONFIG.md).
    file.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    file.pragma('foreign_keys = ON');
    // Deleted content is overwritten with zeros, so an erased visitor leaves no bytes in free pages (docs/DATA.md).
    file.pragma('secure_delete = ON');
    file.pragma('busy_timeout = 5000');
  } catch (err) {
    file?.close();
    throw explainStoreStart(err, dataDir, 'open') ?? err;
  }
  const checkpointer = startWalCheckpointer(file, (message) => process.emitWarning(`SQLite checkpoints: ${message}`, 'ParleyWarning'));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  const close = async (): Promise<void> => {
    await checkpointer.stop();
    await db.destroy();
  };
  return { db, dialect: 'sqlite', sqlite: file, close };
}

/**
 * Before migrations change a SQLite database that has data, a backup of it
 * goes into DATA_DIR/backups/ (the same archive as `npm run backup` writes),
 * so an upgrade that goes wrong can be undone with `npm run restore`. A
 * database without pending migrations, or a new one, is left as it is.
 */
async function backupBeforeMigrations(store: Store, dataDir: string): Promise<void> {
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrationsFor(columnKinds('sqlite')) },
    allowUnorderedMigrations: true,
  });
  const known = await migrator.getMigrations();
  const applied = known.filter((m) => m.executedAt !== undefined).length;
  const pending = known.filter((m) => m.executedAt === undefined);
  if (applied === 0 || pending.length === 0) return;
  const dir = path.join(dataDir, 'backups');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  await createBackup({ dataDir, databaseUrl: null, databaseSchema: null, sqlite: store.sqlite }, path.join(dir, `parley-before-migrations-${stamp}.tar.gz`));
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
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Migrations run on a pool of their own without statement limits (not even
 * one the server or role sets by default): one may legitimately take long,
 * and the instances starting beside it wait for its lock meanwhile.
 * Connecting is still limited.
 */
async function migratePostgres(url: string, schema: string | null, timeouts: Partial<DbTimeouts>): Promise<void> {
  if (schema) {
    const client = new pg.Client({ connectionString: url, ...poolTimeouts(timeouts, false) });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } catch (err) {
      // Instances starting together race here: IF NOT EXISTS does not stop two concurrent
      // creations, and the loser fails on pg_namespace's unique index. The schema is there.
      if (!isDuplicateSchema(err)) throw err;
    } finally {
      await client.end();
    }
  }
  const db = new Kysely<Database>({
    dialect: new MigrationPostgresDialect({ pool: postgresPool(url, schema, { max: 1, ...poolTimeouts(timeouts, false) }, ['statement_timeout=0']) }),
  });
  try {
    await migrate(db, 'postgres', schema);
  } finally {
    await db.destroy();
  }
}

function isDuplicateSchema(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === '23505' || code === '42P06';
}

function openPostgres(url: string, schema: string | null, timeouts: Partial<DbTimeouts>): Store {
  const pool = postgresPool(url, schema, { max: 10, ...poolTimeouts(timeouts) });
  pool.on('connect', (client) => {
    useNamedStatements(client);
    closeAfterReadTimeout(client);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** A pool on `url` with `schema` as search_path and `settings` (`name=value`) for its sessions. */
function postgresPool(url: string, schema: string | null, options: pg.PoolConfig, settings: string[] = []): pg.Pool {
  const session = [...(schema ? [`search_path=${schema}`] : []), ...settings].map((s) => `-c ${s}`);
  const pool = new pg.Pool({
    connectionString: url,
    options: session.length ? session.join(' ') : undefined,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : (pg.types.getTypeParser(oid, format as 'text') as (v: string) => unknown)) as typeof pg.types.getTypeParser,
    },
    ...options,
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  // Nor one checked out between two queries (the pool drops its own listener while a client is
  // out): a restart ends its session (57P01) and pg emits 'error' on the client. The next query
  // on it then fails (503) and the pool discards it on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/**
 * A database a newer Parley has migrated: this version stops before touching it, saying what to do,
 * instead of serving a schema it half understands (Kysely: "previously executed migration … is missing").
 */
export function newerDatabase(error: unknown): string | null {
  const missing = error instanceof Error ? /previously executed migration (\S+) is missing/.exec(error.message) : null;
  if (!missing) return null;
  return (
    `This database was upgraded by a newer Parley: it has migration ${missing[1]}, which this Parley (${parleyVersion()}) does not know. ` +
    'Start the newer version again, or restore a backup taken before the upgrade (docs/DATA.md, "Backup and restore").'
  );
}

async function migrate(db: Db, dialect: DialectName, schema: string | null): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationsFor(columnKinds(dialect)) },
    // Features land in any order and each owns its migration numbers: a database that already ran a
    // later number still takes an earlier one that landed after it (the migrations touch separate tables).
    allowUnorderedMigrations: true,
    ...(dialect === 'postgres' && schema ? { migrationTableSchema: schema } : {}),
  });
  // All pending migrations run in one transaction on PostgreSQL. Instances of the previous version
  // serving beside it (a rolling upgrade) can deadlock with it; PostgreSQL then aborts one side, and
  // when it is the migration, nothing of it was applied: it is run again (transient.ts).
  const { error, results } = await retryTransient(async () => {
    const outcome = await migrator.migrateToLatest();
    if (outcome.error && isTransient(outcome.error)) throw outcome.error as Error;
    return outcome;
  });
  if (error) {
    const newer = newerDatabase(error);
    if (newer) throw new Error(newer, { cause: error });
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`, {
      cause: error,
    });
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

/** Runs fn in a transaction; one PostgreSQL aborts for concurrency alone (a deadlock) is run again (transient.ts). */
export function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return retryTransient(() => db.transaction().execute(fn));
}

/** A cheap round trip, for readiness checks. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
