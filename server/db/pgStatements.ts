/**
 * Named (server-side prepared) statements for PostgreSQL.
 *
 * Kysely's driver sends every query unnamed, so PostgreSQL parses and plans it
 * again on every execution. Our queries are a fixed set of texts with bound
 * parameters, so each pool client prepares a text once (pg keeps it for the
 * connection's life) and afterwards only binds and executes: about 40 µs less
 * PostgreSQL CPU per statement here (docs/BENCHMARKS.md), and PostgreSQL
 * shares the machine's cores with us.
 *
 * Bounded: a client prepares at most MAX_PER_CLIENT texts (queries with an
 * `in (…)` list of varying length have one text per length); past that, new
 * texts run unnamed as before. Queries without parameters (begin, commit,
 * savepoint…) stay on the simple protocol.
 *
 * Schema changes: when another instance migrates a table (docs/DEPLOY.md,
 * "Upgrading": migrations add columns before code reads them), a prepared
 * `select *` of it fails on each connection with "cached plan must not change
 * result type" (0A000). The text is then prepared anew under a new name, and
 * the query is not lost: outside a transaction it runs again at once; inside
 * one the transaction is aborted, so it is run again from its start
 * (transient.ts treats this error as transient).
 *
 * The same for a statement outside a transaction that PostgreSQL aborts for a
 * deadlock: a migration taking its tables' locks one after the other can
 * deadlock with a read that joins two of them; the read is run again.
 */
import type pg from 'pg';
import { isPlanChanged, retryTransient } from './transient.js';

const MAX_PER_CLIENT = 256;

let lastName = 0;

const BEGINS = /^\s*(begin|start\s+transaction)\b/i;
const ENDS = /^\s*(commit|end|abort|rollback(?!\s+(work\s+|transaction\s+)?to\b))\b/i;

/** Makes this pool client run parameterized text queries as named statements. */
export function useNamedStatements(client: pg.PoolClient): void {
  /** Statement text → its name on this connection. */
  const names = new Map<string, string>();
  let prepared = 0;
  /** Whether a transaction is open on this connection (Kysely sends begin/commit/rollback as text). */
  let inTransaction = false;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const named = (text: string, values: unknown[]): Promise<unknown> | null => {
    let name = names.get(text);
    if (name === undefined) {
      if (prepared >= MAX_PER_CLIENT) return null;
      name = `parley_${++lastName}`;
      names.set(text, name);
      prepared += 1;
    }
    return query({ name, text, values }) as Promise<unknown>;
  };
  (client as { query: unknown }).query = (...args: unknown[]): unknown => {
    const [text, values, callback] = args;
    if (typeof text === 'string' && typeof callback !== 'function') {
      if (BEGINS.test(text)) inTransaction = true;
      else if (ENDS.test(text)) inTransaction = false;
    }
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || typeof callback === 'function') return query(...args);
    const run = (): Promise<unknown> =>
      (named(text, values) ?? (query(text, values) as Promise<unknown>)).catch((err: unknown) => {
        if (isPlanChanged(err)) names.delete(text);
        throw err;
      });
    // A statement outside a transaction wrote nothing when it failed for a transient cause, and the
    // caller cannot run it again as it runs a transaction again (database.ts, inTransaction): run it
    // again here. Inside a transaction the error aborted the transaction; the caller's retry runs
    // the whole transaction again.
    return inTransaction ? run() : retryTransient(run);
  };
}
