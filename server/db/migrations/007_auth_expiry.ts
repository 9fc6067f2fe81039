/**
 * What the retention worker needs to delete dead sign-in rows without reading
 * whole tables (server/retention/pruneAuth.ts):
 *
 * - `auth_tokens_expires_at`: tokens past their expiry (a revoked token is
 *   also given an expiry of the moment it was revoked, domain/auth/tokens.ts);
 * - `login_attempts_window`: sign-in throttling rows whose window and lock are
 *   over (one row per e-mail address or IP that ever failed: someone trying
 *   many addresses would otherwise grow the table without end).
 */
import { sql } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema.createIndex('auth_tokens_expires_at').on('auth_tokens').column('expires_at').execute();
  // Tokens revoked before this version expire at that moment too (domain/auth/tokens.ts does so from now on).
  await sql`update auth_tokens set expires_at = revoked_at where revoked_at is not null and revoked_at < expires_at`.execute(db);
  await db.schema.createIndex('login_attempts_window').on('login_attempts').column('window_started_at').execute();
}
