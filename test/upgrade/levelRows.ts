/**
 * What a real deployment holds, written into a database at any earlier
 * migration level (test/upgrade/everyLevel.test.ts): an account, its
 * administrator, its settings, a channel, a visitor, a chat with messages and
 * an uploaded file. Nothing here is written per level: the columns each table
 * has at that level are read from the database itself, the values come from
 * one dictionary (ROWS), and a NOT NULL column without a default that the
 * dictionary does not know (one a future migration adds) gets a value of its
 * type, so a new migration is covered without editing this file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { columnKinds, type DialectName } from '../../server/db/columns.js';
import { MigrationPostgresDialect } from '../../server/db/migrationDialect.js';
import { migrationNames, migrationsFor } from '../../server/db/migrations/index.js';
import { hashPassword } from '../../server/domain/auth/passwords.js';

// Rows are written below the app's types: they are those of an older schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

/** Every migration level, in the order Kysely's Migrator runs them (by name). */
export const LEVELS: readonly string[] = [...migrationNames()].sort();

export const AGENT = { email: 'ada@upgrade.example', password: 'upgrade-password-1', name: 'Ada Admin' };
export const SAFE_URL = 'https://safe.upgrade.example/';
export const UPLOAD = {
  name: 'u9pgrad3u9pgrad3u9pgrad3-contract.pdf',
  bytes: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 2000 }, (_, i) => i % 251))]),
};
export const TEXTS = { visitor: 'Hello, my parcel never arrived', agent: 'Sorry about that, Vera: sending another' };

/** The rows, named, in the order foreign keys need; `values` may use the ids of the rows before. */
interface RowSpec {
  key: string;
  table: string;
  values: (ids: Ids, c: Constants) => Record<string, unknown>;
}

type Ids = Record<string, number>;
interface Constants {
  now: number;
  passwordHash: string;
  publicUrl: string;
}

const ROWS: RowSpec[] = [
  { key: 'account', table: 'accounts', values: () => ({ name: 'Upgrade Co', next_visitor_number: 2 }) },
  {
    key: 'agent',
    table: 'agents',
    values: (_, c) => ({ name: AGENT.name, email: AGENT.email, password_hash: c.passwordHash, role: 'admin', status: 'offline', active: 1 }),
  },
  {
    key: 'settings',
    table: 'settings',
    values: () => ({
      webhook_secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      callback_json: JSON.stringify({ enabled: false, balance_seconds: 0, timezone: 'UTC', hours: null, provider: 'agent_dialled' }),
      safe_url: SAFE_URL,
      missed_chat_minutes: 7,
      archive_email: 'archive@upgrade.example',
    }),
  },
  {
    key: 'channel',
    table: 'channels',
    values: () => ({
      type: 'chat_api',
      name: 'Customer system',
      public_id: 'upgradechannel01',
      secret: 'upgrade-channel-secret',
      webhook_url: 'http://127.0.0.1:9/hook',
      chunked: 0,
      options_json: '{}',
    }),
  },
  {
    key: 'visitor',
    table: 'visitors',
    values: () => ({ external_id: 'customer-42', number: 1, name: 'Vera Visitor', email: 'vera@upgrade.example', session_json: '{}' }),
  },
  {
    key: 'chat',
    table: 'chats',
    values: (ids, c) => ({ status: 'active', accepted_by: ids.agent, agent_ids_json: JSON.stringify([ids.agent]), accepted_at: c.now }),
  },
  { key: 'visitorMessage', table: 'messages', values: () => ({ author: 'visitor', agent_id: null, type: 'text', text: TEXTS.visitor }) },
  { key: 'agentMessage', table: 'messages', values: (ids) => ({ author: 'agent', agent_id: ids.agent, type: 'text', text: TEXTS.agent }) },
  {
    key: 'fileMessage',
    table: 'messages',
    values: (_, c) => ({
      author: 'visitor',
      agent_id: null,
      type: 'document',
      file: `${c.publicUrl}/widget/uploads/${UPLOAD.name}`,
      file_name: 'contract.pdf',
      file_size: UPLOAD.bytes.length,
    }),
  },
  { key: 'upload', table: 'uploads', values: (ids) => ({ name: UPLOAD.name, size: UPLOAD.bytes.length, message_id: ids.fileMessage, agent_id: null }) },
];

/** A column `<x>_id` refers to the row named x (message_id: the message carrying the upload). */
const REFERENCES: Record<string, string> = {
  account_id: 'account',
  agent_id: 'agent',
  channel_id: 'channel',
  visitor_id: 'visitor',
  chat_id: 'chat',
  message_id: 'fileMessage',
};

export interface Column {
  name: string;
  type: string;
  notNull: boolean;
  hasDefault: boolean;
  /** Filled by the database (an identity or SQLite's rowid). */
  generated: boolean;
}

export async function columnsOf(db: AnyDb, dialect: DialectName, schema: string | null): Promise<Map<string, Column[]>> {
  const tables = new Map<string, Column[]>();
  if (dialect === 'postgres') {
    const { rows } = await sql<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
      column_default: string | null;
      is_identity: string;
    }>`select table_name, column_name, data_type, is_nullable, column_default, is_identity
       from information_schema.columns where table_schema = ${schema} order by table_name, ordinal_position`.execute(db);
    for (const r of rows) {
      const list = tables.get(r.table_name) ?? [];
      list.push({
        name: r.column_name,
        type: r.data_type,
        notNull: r.is_nullable === 'NO',
        hasDefault: r.column_default !== null,
        generated: r.is_identity === 'YES',
      });
      tables.set(r.table_name, list);
    }
    return tables;
  }
  const { rows: names } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
  for (const { name } of names) {
    const { rows } = await sql<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: unknown;
      pk: number;
    }>`select * from pragma_table_info(${name})`.execute(db);
    tables.set(
      name,
      rows.map((r) => ({
        name: r.name,
        type: r.type.toLowerCase(),
        notNull: r.notnull === 1 || r.pk > 0,
        hasDefault: r.dflt_value !== null,
        generated: r.pk === 1 && r.type.toLowerCase() === 'integer' && rows.filter((o) => o.pk > 0).length === 1,
      })),
    );
  }
  return tables;
}

/** A value of a column's type, for a NOT NULL column the dictionary does not know. */
function valueOfType(table: string, column: Column, now: number): unknown {
  if (column.name.endsWith('_at')) return now;
  if (column.name.endsWith('_json')) return '{}';
  if (/^(integer|bigint|smallint|int|int4|int8|real|double precision|numeric)$/.test(column.type)) return 0;
  if (column.type === 'text' || column.type.startsWith('character')) return `${table}.${column.name}`;
  if (column.type === 'boolean') return false;
  throw new Error(`test/upgrade/levelRows.ts: no value for ${table}.${column.name} of type ${column.type}; teach valueOfType that type`);
}

/**
 * Inserts one row into `table` as the database's level has it: the columns of `given` that exist there,
 * and a value of its type for any other NOT NULL column without a default. Returns its id.
 */
export async function insertAtLevel(db: AnyDb, tables: Map<string, Column[]>, table: string, given: Record<string, unknown>): Promise<number> {
  const columns = tables.get(table);
  if (!columns) throw new Error(`test/upgrade/levelRows.ts: no table ${table} at this level`);
  const now = Date.now();
  const row: Record<string, unknown> = {};
  for (const column of columns) {
    if (column.name in given) row[column.name] = given[column.name];
    else if (column.generated) continue;
    else if (column.notNull && !column.hasDefault) row[column.name] = valueOfType(table, column, now);
  }
  const inserted = await db.insertInto(table).values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export interface SeededRow {
  key: string;
  table: string;
  /** Where the row is: { id } or, for settings, { account_id }. */
  where: Record<string, number>;
  /** Every value written, by column. */
  written: Record<string, unknown>;
}

/** Writes the rows of ROWS whose tables exist at the database's level, each with the columns that level has. */
export async function writeRows(db: AnyDb, dialect: DialectName, schema: string | null, publicUrl: string): Promise<SeededRow[]> {
  const tables = await columnsOf(db, dialect, schema);
  const c: Constants = { now: Date.now(), passwordHash: await passwordHash(), publicUrl };
  const ids: Ids = {};
  const seeded: SeededRow[] = [];
  for (const spec of ROWS) {
    const columns = tables.get(spec.table);
    if (!columns) continue;
    const given = spec.values(ids, c);
    const row: Record<string, unknown> = {};
    for (const column of columns) {
      if (column.name in given) row[column.name] = given[column.name];
      else if (REFERENCES[column.name] && ids[REFERENCES[column.name]] !== undefined) row[column.name] = ids[REFERENCES[column.name]];
      else if (column.generated) continue;
      else if (column.name.endsWith('_at') && column.notNull) row[column.name] = c.now;
      else if (column.notNull && !column.hasDefault) row[column.name] = valueOfType(spec.table, column, c.now);
    }
    const hasId = columns.some((col) => col.name === 'id' && col.generated && !(col.name in row));
    if (hasId) {
      const inserted = await db.insertInto(spec.table).values(row).returning('id').executeTakeFirstOrThrow();
      ids[spec.key] = Number(inserted.id);
      seeded.push({ key: spec.key, table: spec.table, where: { id: ids[spec.key] }, written: row });
    } else {
      await db.insertInto(spec.table).values(row).execute();
      const keyColumn = columns.find((col) => col.name === 'account_id') ? 'account_id' : null;
      if (!keyColumn) throw new Error(`test/upgrade/levelRows.ts: ${spec.table} has neither an id nor an account_id to find its row by`);
      seeded.push({ key: spec.key, table: spec.table, where: { account_id: Number(row.account_id) }, written: row });
    }
  }
  return seeded;
}

let hash: Promise<string> | null = null;
const passwordHash = (): Promise<string> => (hash ??= hashPassword(AGENT.password));

/** Kysely's Migrator on a database, as Parley's own migrate() makes it. */
function migrator(db: AnyDb, dialect: DialectName, schema: string | null): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrationsFor(columnKinds(dialect)) },
    allowUnorderedMigrations: true,
    ...(dialect === 'postgres' && schema ? { migrationTableSchema: schema } : {}),
  });
}

/**
 * SQLite's levels in one pass: a database climbs the levels one migration at a
 * time (Migrator.migrateTo), and each level asked for is a copy of it then
 * (VACUUM INTO), instead of migrating a new file from nothing for every level.
 * Levels asked out of order are made from nothing.
 */
export class SqliteLadder {
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-ladder-'));
  private readonly file = new SqliteDatabase(path.join(this.dir, 'parley.db'));
  private readonly db: AnyDb = new Kysely({ dialect: new SqliteDialect({ database: this.file }) });
  private reached = -1;
  private queue: Promise<unknown> = Promise.resolve();

  constructor() {
    this.file.pragma('foreign_keys = ON');
  }

  /** A database at `level` in `dataDir` (parley.db), open. */
  at(dataDir: string, level: string): Promise<LevelDatabase> {
    const index = LEVELS.indexOf(level);
    if (index < this.reached) return databaseAt({ DATA_DIR: dataDir }, level);
    const next = this.queue.then(async () => {
      const { error } = await migrator(this.db, 'sqlite', null).migrateTo(level);
      if (error) throw new Error(`migrating to ${level} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`, { cause: error });
      this.reached = index;
      fs.mkdirSync(dataDir, { recursive: true });
      this.file.prepare('vacuum into ?').run(path.join(dataDir, 'parley.db'));
      return openSqliteAt(dataDir);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.db.destroy();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

function openSqliteAt(dataDir: string): LevelDatabase {
  const file = new SqliteDatabase(path.join(dataDir, 'parley.db'));
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  const db: AnyDb = new Kysely({ dialect: new SqliteDialect({ database: file }) });
  return { db, close: () => db.destroy() };
}

export interface LevelDatabase {
  db: AnyDb;
  close(): Promise<void>;
}

/** Opens the store of `env` (DATA_DIR, or DATABASE_URL + DATABASE_SCHEMA) and migrates it exactly up to `level`. */
export async function databaseAt(env: Record<string, string>, level: string): Promise<LevelDatabase> {
  let db: AnyDb;
  const url = env.DATABASE_URL;
  const schema = env.DATABASE_SCHEMA ?? null;
  if (url) {
    if (!schema) throw new Error('databaseAt: a PostgreSQL store needs DATABASE_SCHEMA');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`).finally(() => client.end());
    db = new Kysely({ dialect: new MigrationPostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` }) }) });
  } else {
    fs.mkdirSync(env.DATA_DIR, { recursive: true });
    db = openSqliteAt(env.DATA_DIR).db;
  }
  const { error, results } = await migrator(db, url ? 'postgres' : 'sqlite', schema).migrateTo(level);
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migrating to ${level} failed at ${failed}: ${error instanceof Error ? error.message : JSON.stringify(error)}`, { cause: error });
  }
  return { db, close: () => db.destroy() };
}
