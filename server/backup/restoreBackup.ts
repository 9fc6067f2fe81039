/**
 * Restore (npm run restore -- <file>): an archive made by createBackup.ts
 * back into an empty DATA_DIR (SQLite) or an empty PostgreSQL schema
 * (pg_restore) with DATA_DIR/uploads. In this order, so that a refusal
 * changes nothing:
 *
 * 1. the target must be empty (no database, no uploads), unless `force`;
 * 2. the archive is unpacked beside DATA_DIR and checked: a manifest this
 *    Parley reads (format and migration level not newer than it knows), the
 *    store it holds is the one configured, exactly the files it lists with
 *    their sizes and SHA-256, and for SQLite PRAGMA integrity_check ok;
 * 3. only then is the target replaced (`force`) and the files moved in.
 *
 * The next start applies the migrations this Parley has beyond the archive's.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import * as tar from 'tar';
import { migrationNames } from '../db/migrations/index.js';
import { MANIFEST_NAME, manifestProblem, POSTGRES_ENTRY, sha256File, SQLITE_ENTRY, UPLOADS_PREFIX, type Manifest } from './manifest.js';
import { connectionArg, runTool } from './postgresTools.js';
import { sqliteFacts, sqliteIntegrity } from './sqliteCopy.js';

export class RestoreRefused extends Error {}

export interface RestoreTarget {
  dataDir: string;
  databaseUrl: string | null;
  databaseSchema: string | null;
}

export interface RestoreDone {
  manifest: Manifest;
  target: string;
}

const SQLITE_FILES = ['parley.db', 'parley.db-wal', 'parley.db-shm'];
const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export async function restoreBackup(target: RestoreTarget, archive: string, options: { force?: boolean } = {}): Promise<RestoreDone> {
  const file = path.resolve(archive);
  const stat = await fs.stat(file).catch(() => null);
  if (!stat?.isFile()) throw new RestoreRefused(`There is no backup archive at ${file}.`);
  const dataDir = path.resolve(target.dataDir);
  const schema = target.databaseUrl ? (target.databaseSchema ?? 'public') : null;
  const where = target.databaseUrl ? `the PostgreSQL schema "${schema}" and ${path.join(dataDir, 'uploads')}` : `DATA_DIR (${dataDir})`;

  const occupied = target.databaseUrl ? await postgresOccupied(target.databaseUrl, schema as string, dataDir) : await sqliteOccupied(dataDir);
  if (occupied && !options.force) {
    throw new RestoreRefused(`Refusing to restore: ${where} is not empty (${occupied}). Restore into an empty one, or add --force to replace what is there.`);
  }

  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const staging = await fs.mkdtemp(path.join(path.dirname(dataDir), '.parley-restore-'));
  try {
    const manifest = await unpackAndCheck(file, staging);
    if (target.databaseUrl && manifest.store !== 'postgres') {
      throw new RestoreRefused('This archive holds a SQLite database, but DATABASE_URL is set: restore it without DATABASE_URL (into DATA_DIR).');
    }
    if (!target.databaseUrl && manifest.store !== 'sqlite') {
      throw new RestoreRefused(
        'This archive holds a PostgreSQL dump: set DATABASE_URL (and DATABASE_SCHEMA if you use one) to the empty database to restore it into.',
      );
    }
    if (manifest.store === 'sqlite') await restoreSqlite(staging, dataDir, manifest);
    else await restorePostgres(target.databaseUrl as string, schema as string, staging, dataDir, manifest);
    return { manifest, target: where };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

async function sqliteOccupied(dataDir: string): Promise<string | null> {
  const names = await fs.readdir(dataDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return names.length === 0 ? null : `it holds ${names.slice(0, 3).join(', ')}${names.length > 3 ? ' …' : ''}`;
}

async function uploadsOccupied(dataDir: string): Promise<string | null> {
  const names = await fs.readdir(path.join(dataDir, 'uploads')).catch(() => []);
  return names.length === 0 ? null : `${path.join(dataDir, 'uploads')} holds ${names.length} file(s)`;
}

async function postgresOccupied(url: string, schema: string, dataDir: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'S')`,
      [schema],
    );
    const n = Number(rows[0].n);
    if (n > 0) return `the schema holds ${n} table(s) or sequence(s)`;
  } finally {
    await client.end();
  }
  return uploadsOccupied(dataDir);
}

/** Unpacks the archive into staging and checks it all (step 2); what it describes, or a RestoreRefused. */
async function unpackAndCheck(file: string, staging: string): Promise<Manifest> {
  const unpacked: string[] = [];
  try {
    await tar.extract({
      file,
      cwd: staging,
      strict: true,
      filter: (entryPath, entry) => {
        const type = 'type' in entry ? entry.type : null;
        if (type !== 'File') return false;
        unpacked.push(entryPath);
        return true;
      },
    });
  } catch (err) {
    throw new RestoreRefused(
      `${file} is not a readable backup archive (${err instanceof Error ? err.message : String(err)}): it may be damaged or incomplete.`,
    );
  }
  if (!unpacked.includes(MANIFEST_NAME)) throw new RestoreRefused(`${file} is not a Parley backup: it has no ${MANIFEST_NAME}.`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(await fs.readFile(path.join(staging, MANIFEST_NAME), 'utf8'));
  } catch {
    throw new RestoreRefused(`${file} is not a Parley backup: its ${MANIFEST_NAME} is not JSON.`);
  }
  const problem = manifestProblem(manifest, migrationNames());
  if (problem) throw new RestoreRefused(`Cannot restore ${file}: ${problem}.`);
  const m = manifest as Manifest;
  const dbEntry = m.store === 'sqlite' ? SQLITE_ENTRY : POSTGRES_ENTRY;
  const listed = new Set(m.files.map((f) => f.path));
  if (!listed.has(dbEntry)) throw new RestoreRefused(`Cannot restore ${file}: it lists no ${dbEntry}.`);
  for (const p of listed) {
    if (p !== dbEntry && !(p.startsWith(UPLOADS_PREFIX) && /^[^/\\.][^/\\]*$/.test(p.slice(UPLOADS_PREFIX.length)))) {
      throw new RestoreRefused(`Cannot restore ${file}: its manifest lists an unexpected file ${p}.`);
    }
  }
  const extra = unpacked.filter((p) => p !== MANIFEST_NAME && !listed.has(p));
  if (extra.length > 0) throw new RestoreRefused(`Cannot restore ${file}: it holds files its manifest does not list (${extra.slice(0, 3).join(', ')}).`);
  for (const f of m.files) {
    const full = path.join(staging, f.path);
    const st = await fs.stat(full).catch(() => null);
    if (!st) throw new RestoreRefused(`Cannot restore ${file}: ${f.path} is missing from it (the archive is incomplete).`);
    if (st.size !== f.size || (await sha256File(full)) !== f.sha256) {
      throw new RestoreRefused(`Cannot restore ${file}: ${f.path} does not match its checksum in the manifest (the archive is damaged).`);
    }
  }
  if (m.store === 'sqlite') {
    const dbFile = path.join(staging, SQLITE_ENTRY);
    let integrity: string;
    try {
      integrity = sqliteIntegrity(dbFile);
    } catch (err) {
      throw new RestoreRefused(`Cannot restore ${file}: its database cannot be opened (${err instanceof Error ? err.message : String(err)}).`);
    }
    if (integrity !== 'ok') throw new RestoreRefused(`Cannot restore ${file}: its database fails PRAGMA integrity_check (${integrity}).`);
    const facts = sqliteFacts(dbFile);
    if (facts.migrations.join() !== m.migrations.join())
      throw new RestoreRefused(`Cannot restore ${file}: its database is not at the migration level its manifest names.`);
  }
  return m;
}

/** Moves a staged file or directory into place (a copy when they are on different file systems). */
async function moveInto(from: string, to: string): Promise<void> {
  try {
    await fs.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fs.cp(from, to, { recursive: true });
  }
}

async function placeUploads(staging: string, dataDir: string): Promise<void> {
  await fs.rm(path.join(dataDir, 'uploads'), { recursive: true, force: true });
  const staged = path.join(staging, 'uploads');
  if (await fs.stat(staged).catch(() => null)) await moveInto(staged, path.join(dataDir, 'uploads'));
  else await fs.mkdir(path.join(dataDir, 'uploads'));
}

async function restoreSqlite(staging: string, dataDir: string, _manifest: Manifest): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true });
  for (const name of SQLITE_FILES) await fs.rm(path.join(dataDir, name), { force: true });
  await moveInto(path.join(staging, SQLITE_ENTRY), path.join(dataDir, 'parley.db'));
  await placeUploads(staging, dataDir);
}

/**
 * pg_restore in one transaction into the archive's schema name; when the
 * target schema has another name, the restored schema is renamed to it (the
 * archive's name must then be free in the target database).
 */
async function restorePostgres(url: string, schema: string, staging: string, dataDir: string, manifest: Manifest): Promise<void> {
  const archived = manifest.postgres_schema ?? 'public';
  const dump = path.join(staging, POSTGRES_ENTRY);
  const dbname = await connectionArg(url, staging);
  const toc = await runTool('pg_restore', ['--list', dump]);
  const createsSchema = new RegExp(`\\sSCHEMA - ${archived}\\s`).test(toc);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const exists = async (name: string): Promise<boolean> => (await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [name])).rowCount === 1;
    if (archived !== schema && (await exists(archived))) {
      throw new RestoreRefused(
        `This archive's schema "${archived}" already exists in the target database, so it cannot be restored there as "${schema}": restore into a database without a schema "${archived}", or set DATABASE_SCHEMA=${archived} and make that one empty.`,
      );
    }
    // The target is empty, or --force said to replace it.
    await client.query(`DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`);
    if (!createsSchema) await client.query(`CREATE SCHEMA ${quote(archived)}`);
    try {
      await runTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', dbname, dump]);
    } catch (err) {
      if (!createsSchema) await client.query(`DROP SCHEMA IF EXISTS ${quote(archived)} CASCADE`);
      throw err;
    }
    if (archived !== schema) await client.query(`ALTER SCHEMA ${quote(archived)} RENAME TO ${quote(schema)}`);
  } finally {
    await client.end();
  }
  await fs.mkdir(dataDir, { recursive: true });
  await placeUploads(staging, dataDir);
}
