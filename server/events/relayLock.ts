/**
 * The relay's lock on PostgreSQL: one relay batch at a time per database
 * schema (relay.ts). Work that must not interleave with a relay transaction
 * (rebuilding a rollup the relay also writes: domain/reports/dailyRollup.ts)
 * takes the same lock. On SQLite there is one connection, so transactions
 * never interleave and no lock is needed.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** pg_advisory_lock(class, hashtext(schema)). */
const LOCK_CLASS = 0x50_52_4c; // "PRL"

/** Runs fn on one connection holding the relay's lock (PostgreSQL), or on db itself (SQLite). */
export async function withRelayLock<T>(db: Db, dialect: 'sqlite' | 'postgres', fn: (db: Db) => Promise<T>): Promise<T> {
  if (dialect !== 'postgres') return fn(db);
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${LOCK_CLASS}, hashtext(current_schema()))`.execute(conn);
    try {
      return await fn(conn);
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_CLASS}, hashtext(current_schema()))`.execute(conn);
    }
  });
}
