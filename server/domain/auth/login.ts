/**
 * Sign-in: checks the password (in constant time, also for unknown e-mails),
 * throttles failures per (address, e-mail) pair and per address (throttles.ts),
 * and issues a token. A password hash made at an older scrypt cost is made
 * again at the current one now that the password is known (passwords.ts).
 *
 * A one-time password (printed by `npm run reset-admin`, agents.password_state
 * `one_time`) signs in once: that sign-in marks it used in the transaction
 * that issues the token (of two racing sign-ins only one wins), the answer
 * says the password must be changed, and the session can do nothing else
 * until it is (routes/authenticate.ts). Signing in with it again answers 401
 * `one_time_password_used`. The password generated at the first start
 * (`generated`) signs in as often as needed, each session limited the same
 * way until the first-run page (agents/firstRun.ts) replaces it.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { inTransaction, type Db } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { safeEqual } from '../../lib/ids.js';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { assertNotThrottled, clearPairThrottle, recordSignInFailure } from './throttles.js';
import { issueToken } from './tokens.js';

export interface LoginInput {
  email: string;
  password: string;
  ip: string;
  /** The shared proxy the sign-in came through (routes/signInSource.ts), if any. */
  via?: string | null;
}

/**
 * The password, now known to be right, hashed again at the current cost. Only
 * over the hash it was checked against: a password changed meanwhile stays.
 * The no-op update locks the row (PostgreSQL's row lock, SQLite's one writer)
 * until the transaction ends. Nobody sees the difference (same password, same
 * sessions), so no event is recorded.
 */
async function rehash(db: Db, agent: Agent, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await inTransaction(db, async (tx) => {
    const row = await tx
      .updateTable('agents')
      .set({ password_hash: sql<string>`password_hash` })
      .where('id', '=', agent.id)
      .returning('password_hash')
      .executeTakeFirst();
    if (row && safeEqual(row.password_hash, agent.password_hash)) {
      await tx.updateTable('agents').set({ password_hash: hash }).where('id', '=', agent.id).execute();
    }
  });
}

/** The one sign-in of a one-time password: marked used (only if still unused and still this password), with the token of its session. */
async function useOneTimePassword(db: Db, agent: Agent, now: number, ttlSeconds: number): Promise<string> {
  return inTransaction(db, async (tx) => {
    const used = await tx
      .updateTable('agents')
      .set({ password_state: 'one_time_used' })
      .where('id', '=', agent.id)
      .where('password_state', '=', 'one_time')
      .returning('password_hash')
      .executeTakeFirst();
    // Still the password just checked (not one set since by another reset); throwing rolls the mark back.
    if (!used || !safeEqual(used.password_hash, agent.password_hash)) throw new AppError('one_time_password_used');
    return issueToken(tx, agent, now, ttlSeconds);
  });
}

export interface LoginResult {
  token: string;
  agent: Agent;
  /** Signed in with a one-time password: the session must choose a new password before anything else. */
  mustChangePassword: boolean;
}

export async function login(ctx: AppContext, input: LoginInput): Promise<LoginResult> {
  const { db } = ctx;
  const now = ctx.clock();
  const keys = { address: input.ip, email: input.email.trim().toLowerCase(), via: input.via ?? null };
  await assertNotThrottled(db, keys, now);

  const agent = await db.selectFrom('agents').selectAll().where('email', '=', keys.email).executeTakeFirst();
  const ok = await verifyPassword(input.password, agent?.password_hash ?? dummyHash());
  if (!agent || !ok || agent.active !== 1) {
    await recordSignInFailure(db, { ...keys, accountId: agent?.account_id ?? null }, now);
    throw new AppError('invalid_credentials');
  }
  await clearPairThrottle(db, keys, now);
  // The password generated at the first start signs in until the first-run page replaces it (agents/firstRun.ts).
  if (agent.password_state === 'generated') {
    const token = await issueToken(db, agent, now, ctx.config.tokenTtlSeconds);
    return { token, agent, mustChangePassword: true };
  }
  if (agent.password_state !== 'chosen') {
    const token = await useOneTimePassword(db, agent, now, ctx.config.tokenTtlSeconds);
    return { token, agent: { ...agent, password_state: 'one_time_used' }, mustChangePassword: true };
  }
  if (needsRehash(agent.password_hash)) await rehash(db, agent, input.password);
  const token = await issueToken(db, agent, now, ctx.config.tokenTtlSeconds);
  return { token, agent, mustChangePassword: false };
}
