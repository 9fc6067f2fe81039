/**
 * Transactions PostgreSQL aborts for concurrency alone: a deadlock (40P01) or
 * a serialization failure (40001), or because another instance's migration
 * changed the columns of a table a prepared statement reads (0A000,
 * pgStatements.ts: the statement is prepared anew on the next run). Nothing
 * of such a transaction was written, so it is run again from its start, a few times, after a short random pause
 * (two transactions that deadlocked would otherwise meet again at once).
 * Writers still take rows in one order (a visitor before its chats) so that
 * this stays rare; it is the net under that rule, not a replacement for it.
 * SQLite has one writer at a time and never raises these.
 */
const TRANSIENT_CODES = new Set(['40P01', '40001']);

/** PostgreSQL's answer to a prepared statement whose result columns a migration changed. */
export function isPlanChanged(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { code?: unknown }).code === '0A000' &&
    /cached plan must not change result type/.test(String((err as { message?: unknown }).message))
  );
}

/** At most this many runs of one transaction. */
export const TRANSIENT_ATTEMPTS = 4;

export function isTransient(err: unknown): boolean {
  return (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' && TRANSIENT_CODES.has(err.code)) || isPlanChanged(err);
}

/** Runs `run` again while it fails with a transient error, up to TRANSIENT_ATTEMPTS runs in all. */
export async function retryTransient<T>(run: () => Promise<T>, attempts = TRANSIENT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= attempts || !isTransient(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
