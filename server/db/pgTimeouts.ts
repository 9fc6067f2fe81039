/**
 * Timeouts of the PostgreSQL pool, so that a database which stops answering
 * (frozen, a lock held forever, a runaway statement) makes requests answer 503
 * and workers retry, instead of holding them forever:
 *
 * - `statement_timeout` (server side, set on every connection at startup):
 *   PostgreSQL cancels a statement that runs longer, SQLSTATE 57014. The
 *   connection stays usable.
 * - `query_timeout` (client side, a little later): a server that answers
 *   nothing at all cannot cancel anything, so pg gives up itself ("Query read
 *   timeout"). Its query is still on the wire and would hold up whatever runs
 *   on that connection next, so the connection is closed (the pool then drops
 *   it and opens a new one).
 * - `connectionTimeoutMillis`: waiting for a free pool connection, or for a
 *   new connection to be made, ends ("timeout exceeded when trying to
 *   connect", "Connection terminated due to connection timeout").
 *
 * errors/handler.ts answers all of these 503. Migrations run on a connection
 * of their own without the statement limits (database.ts).
 */
import type pg from 'pg';
import { DB_TIMEOUT_DEFAULTS, type Config } from '../config/config.js';

/** How much longer than statement_timeout the client waits for the server's own cancel. */
export const READ_TIMEOUT_GRACE_MS = 1000;
const READ_TIMEOUT = 'Query read timeout';

export type DbTimeouts = Pick<Config, 'dbStatementTimeoutMs' | 'dbConnectTimeoutMs'>;

/** pg.Pool options for these limits (0: no limit); `statements: false` leaves statements unlimited (migrations). */
export function poolTimeouts(given: Partial<DbTimeouts>, statements = true): pg.PoolConfig {
  const { dbStatementTimeoutMs, dbConnectTimeoutMs } = { ...DB_TIMEOUT_DEFAULTS, ...given };
  return {
    ...(statements && dbStatementTimeoutMs > 0 ? { statement_timeout: dbStatementTimeoutMs, query_timeout: dbStatementTimeoutMs + READ_TIMEOUT_GRACE_MS } : {}),
    ...(dbConnectTimeoutMs > 0 ? { connectionTimeoutMillis: dbConnectTimeoutMs } : {}),
  };
}

/** Makes this pool client close its connection when a query of it times out on the client side. */
export function closeAfterReadTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]): unknown => {
    const result = query(...args);
    if (!(result instanceof Promise)) return result;
    return result.catch((err: unknown) => {
      // end() marks the client ended at once, so the pool drops it on release, and cuts
      // the socket of a query still in flight instead of waiting for a server that is gone.
      if ((err as Error | null)?.message === READ_TIMEOUT) client.end().catch(() => undefined);
      throw err;
    });
  };
}
