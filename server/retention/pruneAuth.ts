/**
 * Sign-in rows that can no longer mean anything, whatever RETENTION_DAYS says:
 *
 * - auth_tokens past their expiry (resolveToken refuses them; a revoked token
 *   expires when it is revoked, domain/auth/tokens.ts), through the index
 *   auth_tokens_expires_at;
 * - login_attempts whose throttling window and lock are over
 *   (domain/auth/login.ts), through login_attempts_window.
 *
 * Oldest first, `limit` at a time. A row a sign-in or a logout changes at the
 * same moment is one it would refuse or replace anyway: nothing here needs a
 * row lock beyond the delete's own.
 */
import type { AppContext } from '../context.js';
import type { Executor } from '../db/database.js';
import { loginAttemptsCutoff } from '../domain/auth/login.js';
import { exclusively } from './exclusive.js';

export function deleteExpiredTokens(db: Executor, p: { now: number; limit: number }) {
  return db
    .deleteFrom('auth_tokens')
    .where('id', 'in', db.selectFrom('auth_tokens').select('id').where('expires_at', '<=', p.now).orderBy('expires_at').limit(p.limit));
}

export function deleteOldLoginAttempts(db: Executor, p: { now: number; limit: number }) {
  return db
    .deleteFrom('login_attempts')
    .where(
      'key',
      'in',
      db.selectFrom('login_attempts').select('key').where('window_started_at', '<', loginAttemptsCutoff(p.now)).orderBy('window_started_at').limit(p.limit),
    );
}

/** One batch of each; null when another instance is pruning. */
export async function pruneAuth(ctx: AppContext, p: { now: number; limit: number }): Promise<{ deleted: number; more: boolean } | null> {
  const result = await exclusively(ctx, async (tx) => {
    const tokens = Number((await deleteExpiredTokens(tx, p).executeTakeFirst()).numDeletedRows);
    const attempts = Number((await deleteOldLoginAttempts(tx, p).executeTakeFirst()).numDeletedRows);
    return { tokens, attempts };
  });
  if (result === null) return null;
  return { deleted: result.tokens + result.attempts, more: result.tokens >= p.limit || result.attempts >= p.limit };
}
