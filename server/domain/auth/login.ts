/**
 * Sign-in: checks the password (in constant time, also for unknown e-mails),
 * throttles failures per (address, e-mail) pair and per address (throttles.ts),
 * and issues a token. A password hash made at an older scrypt cost is made
 * again at the current one now that the password is known (passwords.ts).
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/database.js';
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
  await db.transaction().execute(async (tx) => {
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

export async function login(ctx: AppContext, input: LoginInput): Promise<{ token: string; agent: Agent }> {
  const { db } = ctx;
  const now = ctx.clock();
  const keys = { address: input.ip, email: input.email.trim().toLowerCase() };
  await assertNotThrottled(db, keys, now);

  const agent = await db.selectFrom('agents').selectAll().where('email', '=', keys.email).executeTakeFirst();
  const ok = await verifyPassword(input.password, agent?.password_hash ?? dummyHash());
  if (!agent || !ok || agent.active !== 1) {
    await recordSignInFailure(db, { ...keys, accountId: agent?.account_id ?? null }, now);
    throw new AppError('invalid_credentials');
  }
  await clearPairThrottle(db, keys);
  if (needsRehash(agent.password_hash)) await rehash(db, agent, input.password);
  const token = await issueToken(db, agent, now, ctx.config.tokenTtlSeconds);
  return { token, agent };
}
