/**
 * One backup archive (docs/DATA.md "Backup and restore"): a gzipped tar of
 *
 *   manifest.json              what made it, store, migration level, counts, and size and SHA-256 of every file
 *   database/parley.db         SQLite: a copy through the online backup API (sqliteCopy.ts)
 *   database/parley.pgdump     PostgreSQL: pg_dump's custom format (postgresDump.ts)
 *   uploads/<name>             the files of DATA_DIR/uploads (visitors' files, agents' photos)
 *
 * The database is copied first, then the uploads: every file the copied
 * database refers to was written before the row that names it committed, so
 * it is there (files are never changed once written). The archive is written
 * beside its destination as `<file>.part` and renamed into place when
 * complete: a destination either holds a whole archive or none.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import * as tar from 'tar';
import {
  describeFile,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST_NAME,
  parleyVersion,
  POSTGRES_ENTRY,
  SQLITE_ENTRY,
  UPLOADS_PREFIX,
  type Manifest,
  type ManifestFile,
} from './manifest.js';
import { dumpPostgres } from './postgresDump.js';
import { copySqlite, sqliteFacts } from './sqliteCopy.js';

export class BackupError extends Error {}

export interface BackupSource {
  dataDir: string;
  databaseUrl: string | null;
  databaseSchema: string | null;
  /** The server's own SQLite connection, when the backup runs inside the server (sqliteCopy.ts). */
  sqlite?: SqliteDatabase.Database;
}

export interface BackupDone {
  file: string;
  size: number;
  manifest: Manifest;
}

export async function createBackup(source: BackupSource, destination: string, now = Date.now()): Promise<BackupDone> {
  const file = path.resolve(destination);
  const dir = path.dirname(file);
  const dirStat = await fs.stat(dir).catch(() => null);
  if (!dirStat?.isDirectory()) throw new BackupError(`The directory ${dir} does not exist: create it first, or name a file in an existing one.`);
  const staging = await fs.mkdtemp(path.join(dir, '.parley-backup-'));
  try {
    await fs.mkdir(path.join(staging, 'database'));
    let store: Manifest['store'];
    let schema: string | null = null;
    let facts;
    let dbEntry: string;
    if (source.databaseUrl) {
      store = 'postgres';
      dbEntry = POSTGRES_ENTRY;
      const dumped = await dumpPostgres(source.databaseUrl, source.databaseSchema, path.join(staging, dbEntry), staging);
      schema = dumped.schema;
      facts = dumped;
    } else {
      store = 'sqlite';
      dbEntry = SQLITE_ENTRY;
      const dbFile = path.join(source.dataDir, 'parley.db');
      if (!source.sqlite && !(await fs.stat(dbFile).catch(() => null))) {
        throw new BackupError(`There is no database at ${dbFile}: is DATA_DIR (${source.dataDir}) the one the server uses?`);
      }
      await copySqlite(source.sqlite ?? dbFile, path.join(staging, dbEntry));
      facts = sqliteFacts(path.join(staging, dbEntry));
    }
    const files: ManifestFile[] = [await describeFile(staging, dbEntry)];
    const uploads = await uploadNames(path.join(source.dataDir, 'uploads'));
    if (uploads.length > 0) {
      // Packed through a link, not copied: tar follows it (follow: true) and reads each file once.
      await fs.symlink(path.join(source.dataDir, 'uploads'), path.join(staging, 'uploads'));
      for (const name of uploads) {
        const described = await describeFile(staging, `${UPLOADS_PREFIX}${name}`).catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return null; // freed meanwhile: its row is gone from later states too
          throw err;
        });
        if (described) files.push(described);
      }
    }
    const manifest: Manifest = {
      format: FORMAT,
      format_version: FORMAT_VERSION,
      parley_version: parleyVersion(),
      store,
      postgres_schema: schema,
      migrations: facts.migrations,
      created_at: new Date(now).toISOString(),
      counts: { ...facts.counts, uploads: files.length - 1 },
      files,
    };
    await fs.writeFile(path.join(staging, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
    const part = `${file}.part`;
    // gzip level 1: most of the size saved for a third of the CPU of the default, which the server shares.
    await tar.create({ file: part, gzip: { level: 1 }, cwd: staging, follow: true, portable: true }, [MANIFEST_NAME, ...files.map((f) => f.path)]);
    await fs.rename(part, file);
    const { size } = await fs.stat(file);
    return { file, size, manifest };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
    await fs.rm(`${file}.part`, { force: true });
  }
}

/** The stored files of DATA_DIR/uploads: not the `.…tmp` files of writes under way. */
async function uploadNames(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}
