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
 * Schema changes: when another instance migrates a table, a prepared
 * `select *` of it fails once on each connection with "cached plan must not
 * change result type" (0A000); the text is then prepared anew under a new name
 * on its next run. docs/SCALING.md says to restart old instances after such a
 * migration (a rolling deploy does).
 */
import type pg from 'pg';

const MAX_PER_CLIENT = 256;
const PLAN_CHANGED = '0A000';

let lastName = 0;

/** Makes this pool client run parameterized text queries as named statements. */
export function useNamedStatements(client: pg.PoolClient): void {
  /** Statement text → its name on this connection. */
  const names = new Map<string, string>();
  let prepared = 0;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]): unknown => {
    const [text, values, callback] = args;
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || typeof callback === 'function') return query(...args);
    let name = names.get(text);
    if (name === undefined) {
      if (prepared >= MAX_PER_CLIENT) return query(...args);
      name = `parley_${++lastName}`;
      names.set(text, name);
      prepared += 1;
    }
    return (query({ name, text, values }) as Promise<unknown>).catch((err: unknown) => {
      if ((err as { code?: unknown }).code === PLAN_CHANGED) names.delete(text);
      throw err;
    });
  };
}
