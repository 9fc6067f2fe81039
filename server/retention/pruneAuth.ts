/**
 * Sign-in rows that can no longer mean anything, whatever RETENTION_DAYS says:
 *
 * - auth_tokens past their expiry (resolveToken refuses them; a revoked token
 *   expires when it is revoked, domain/auth/tokens.ts), through the index
 *   auth_tokens_expires_at;
 * - sign_in_throttles past `expires_at`: their delay is over and their
 *   failures forgotten (domain/auth/throttles.ts), through
 *   sign_in_throttles_expires_at.
 *
 * Oldest first, `limit` at a time. A row a sign-in or a logout changes at the
 * same moment is one it would refuse or replace anyway: nothing here needs a
 * row lock beyond the delete's own.
 */
import type { AppContext } from '../context.js';
import type { Executor } from '../db/database.js';
import { exclusively } from './exclusive.js';

export function deleteExpiredTokens(db: Executor, p: { now: number; limit: number }) {
  return db
    .deleteFrom('auth_tokens')
    .where('id', 'in', db.selectFrom('auth_tokens').select('id').where('expires_at', '<=', p.now).orderBy('expires_at').limit(p.limit));
}

export function deleteFinishedThrottles(db: Executor, p: { now: number; limit: number }) {
  return db
    .deleteFrom('sign_in_throttles')
    .where('id', 'in', db.selectFrom('sign_in_throttles').select('id').where('expires_at', '<=', p.now).orderBy('expires_at').limit(p.limit));
}

/** One batch of each; null when another instance is pruning. */
export async function pruneAuth(ctx: AppContext, p: { now: number; limit: number }): Promise<{ deleted: number; more: boolean } | null> {
  const result = await exclusively(ctx, async (tx) => {
    const tokens = Number((await deleteExpiredTokens(tx, p).executeTakeFirst()).numDeletedRows);
    const attempts = Number((await deleteFinishedThrottles(tx, p).executeTakeFirst()).numDeletedRows);
    return { tokens, attempts };
  });
  if (result === null) return null;
  return { deleted: result.tokens + result.attempts, more: result.tokens >= p.limit || result.attempts >= p.limit };
}
