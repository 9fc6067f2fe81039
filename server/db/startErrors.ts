/**
 * Why the SQLite store could not start, in one line naming DATA_DIR and what
 * to do: a read-only or full DATA_DIR otherwise surfaces as SQLite's bare
 * "unable to open database file" or "database or disk is full", without the
 * path. main.ts prints the message alone (no stack) and exits 1.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A start failure the operator fixes on the host (the message says how); not a bug of the service. */
export class StoreStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreStartError';
  }
}

const NOT_WRITABLE = new Set(['SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_PERM', 'EROFS', 'EACCES', 'EPERM']);
const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** The nearest existing directory above dir when it refuses writing (a read-only mount, permissions). */
function unwritableAncestor(dir: string): { dir: string; why: string } | null {
  for (let at = path.dirname(dir); ; at = path.dirname(at)) {
    if (fs.existsSync(at)) {
      try {
        fs.accessSync(at, fs.constants.W_OK);
        return null;
      } catch (err) {
        return { dir: at, why: err instanceof Error ? err.message : String(err) };
      }
    }
    if (path.dirname(at) === at) return null;
  }
}

/** The error code of err or of an error it wraps (the migrator wraps SQLite's). */
function codeOf(err: unknown): { code: string; message: string } | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return { code, message: e.message };
  }
  return null;
}

/** What happened where, and what to do; null when err is not about DATA_DIR's disk (it is thrown as it is). */
export function explainStoreStart(err: unknown, dataDir: string, step: 'create' | 'open'): StoreStartError | null {
  const found = codeOf(err);
  if (found === null) return null;
  const { code, message } = found;
  const why = message.startsWith(code) ? message : `${code}: ${message}`;
  // SQLite's extended codes (SQLITE_READONLY_DIRECTORY, SQLITE_IOERR_WRITE) belong to their primary one.
  const family = /^SQLITE_[A-Z]+/.exec(code)?.[0] ?? code;
  if (FULL.has(family)) {
    return new StoreStartError(
      `DATA_DIR ${dataDir} is full (${why}): the SQLite database (parley.db) cannot be written there; free space on that disk, or set DATA_DIR to a directory on a disk with room.`,
      { cause: err },
    );
  }
  if (step === 'create') {
    // mkdir -p on a read-only mount answers ENOENT: the parent that exists and refuses is the clearer reason.
    const refusing = unwritableAncestor(dataDir);
    const reason = refusing ? `${refusing.dir} is not writable: ${refusing.why}` : why;
    return new StoreStartError(
      `DATA_DIR ${dataDir} cannot be created (${reason}): create it, writable by the user running Parley, or set DATA_DIR to a writable directory.`,
      { cause: err },
    );
  }
  if (NOT_WRITABLE.has(family)) {
    return new StoreStartError(
      `DATA_DIR ${dataDir} is not writable (${why}): Parley keeps its SQLite database (parley.db, with its -wal and -shm files) there; make the directory and those files writable by the user running Parley (not a read-only mount), or set DATA_DIR to a writable directory.`,
      { cause: err },
    );
  }
  if (family === 'SQLITE_IOERR' || code === 'EIO') {
    return new StoreStartError(
      `DATA_DIR ${dataDir} could not be written (${why}): check the disk under it (full, failing or gone), or set DATA_DIR to a directory on a working disk.`,
      { cause: err },
    );
  }
  return null;
}
