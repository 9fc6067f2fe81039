/**
 * Named (server-side prepared) statements for PostgreSQL.
 *
 * Kysely's driver sends every query unnamed, so PostgreSQL parses and plans it
 * again on every execution. Our queries are a fixed set of texts with bound
 * parameters, so each pool client prepares a text once (pg names it and keeps
 * it for the connection's life) and afterwards only binds and executes: about
 * 40 µs less PostgreSQL CPU per statement here (benchmarks, issue 8), and
 * PostgreSQL shares the machine's cores with us.
 *
 * Bounded: a client prepares at most MAX_PER_CLIENT texts (queries with an
 * `in (…)` list of varying length have one text per length); past that, new
 * texts run unnamed as before. Queries without parameters (begin, commit,
 * savepoint…) stay on the simple protocol.
 */
import type pg from 'pg';

const MAX_PER_CLIENT = 256;
const MAX_NAMES = 4096;

/** Statement text → its name, shared by every client of the process (the text is the identity). */
const names = new Map<string, string>();

function nameFor(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) {
    name = `parley_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/** Makes this pool client run parameterized text queries as named statements. */
export function useNamedStatements(client: pg.PoolClient): void {
  const prepared = new Set<string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]): unknown => {
    const [text, values, callback] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && typeof callback !== 'function') {
      const name = prepared.has(text) || prepared.size < MAX_PER_CLIENT ? nameFor(text) : undefined;
      if (name !== undefined) {
        prepared.add(text);
        return query({ name, text, values });
      }
    }
    return query(...args);
  };
}
