/**
 * The manifest of a backup archive (manifest.json, its first entry): what
 * made it, from which store at which migration level, what it holds, and the
 * size and SHA-256 of every other file in it. Restore reads it first and
 * refuses an archive it does not describe exactly (restoreBackup.ts).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MANIFEST_NAME = 'manifest.json';
export const FORMAT = 'parley-backup';
/** Raised when the layout changes in a way an older restore cannot read. */
export const FORMAT_VERSION = 1;
/** The database's place in the archive, per store. */
export const SQLITE_ENTRY = 'database/parley.db';
export const POSTGRES_ENTRY = 'database/parley.pgdump';
export const UPLOADS_PREFIX = 'uploads/';

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface BackupCounts {
  accounts: number;
  agents: number;
  visitors: number;
  chats: number;
  messages: number;
  uploads: number;
}

export interface Manifest {
  format: typeof FORMAT;
  format_version: number;
  parley_version: string;
  store: 'sqlite' | 'postgres';
  /** PostgreSQL: the schema that was dumped (public when DATABASE_SCHEMA is unset). */
  postgres_schema: string | null;
  /** The migrations applied to the database that was copied, in the order they ran. */
  migrations: string[];
  created_at: string;
  counts: BackupCounts;
  files: ManifestFile[];
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function describeFile(root: string, entry: string): Promise<ManifestFile> {
  const full = path.join(root, entry);
  const stat = await fs.promises.stat(full);
  return { path: entry, size: stat.size, sha256: await sha256File(full) };
}

let version: string | null = null;

/** This Parley's version, from the package.json above this module (server/ or dist/server/). */
export function parleyVersion(): string {
  if (version !== null) return version;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'parley' && typeof pkg.version === 'string') return (version = pkg.version);
    }
    const up = path.dirname(dir);
    if (up === dir) return (version = 'unknown');
    dir = up;
  }
}

/** What is wrong with a manifest read from an archive (null: it is one this Parley can restore). */
export function manifestProblem(value: unknown, knownMigrations: readonly string[]): string | null {
  if (typeof value !== 'object' || value === null) return 'its manifest.json is not a JSON object';
  const m = value as Partial<Manifest>;
  if (m.format !== FORMAT) return 'its manifest.json does not describe a Parley backup';
  if (typeof m.format_version !== 'number') return 'its manifest.json has no format_version';
  if (m.format_version > FORMAT_VERSION) {
    return `it was made by a newer Parley (${String(m.parley_version)}, archive format ${m.format_version}); this Parley (${parleyVersion()}) reads format ${FORMAT_VERSION}: restore it with that version or newer`;
  }
  if (m.store !== 'sqlite' && m.store !== 'postgres') return 'its manifest.json names no store (sqlite or postgres)';
  if (!Array.isArray(m.migrations) || !m.migrations.every((n) => typeof n === 'string')) return 'its manifest.json lists no migrations';
  const unknown = m.migrations.filter((n) => !knownMigrations.includes(n));
  if (unknown.length > 0) {
    return `its database is at a migration level this Parley (${parleyVersion()}) does not know (${unknown.join(', ')}): it was made by Parley ${String(m.parley_version)}; restore it with that version or newer`;
  }
  if (!Array.isArray(m.files) || !m.files.every(isManifestFile)) return 'its manifest.json has no valid file list';
  if (typeof m.counts !== 'object' || m.counts === null) return 'its manifest.json has no counts';
  return null;
}

function isManifestFile(f: unknown): f is ManifestFile {
  if (typeof f !== 'object' || f === null) return false;
  const x = f as Partial<ManifestFile>;
  return typeof x.path === 'string' && typeof x.size === 'number' && typeof x.sha256 === 'string' && /^[0-9a-f]{64}$/.test(x.sha256);
}
