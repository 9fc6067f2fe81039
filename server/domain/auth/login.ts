/**
 * Sign-in: checks the password (in constant time, also for unknown e-mails),
 * throttles failures per (address, e-mail) pair and per address (throttles.ts),
 * and issues a token.
 */
import type { Db } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { DUMMY_HASH, verifyPassword } from './passwords.js';
import { assertNotThrottled, clearPairThrottle, recordSignInFailure } from './throttles.js';
import { issueToken } from './tokens.js';

export interface LoginInput {
  db: Db;
  email: string;
  password: string;
  ip: string;
  now: number;
  ttlSeconds: number;
}

export async function login(input: LoginInput): Promise<{ token: string; agent: Agent }> {
  const { db, now } = input;
  const keys = { address: input.ip, email: input.email.trim().toLowerCase() };
  await assertNotThrottled(db, keys, now);

  const agent = await db.selectFrom('agents').selectAll().where('email', '=', keys.email).executeTakeFirst();
  const ok = await verifyPassword(input.password, agent?.password_hash ?? DUMMY_HASH);
  if (!agent || !ok || agent.active !== 1) {
    await recordSignInFailure(db, { ...keys, accountId: agent?.account_id ?? null }, now);
    throw new AppError('invalid_credentials');
  }
  await clearPairThrottle(db, keys);
  const token = await issueToken(db, agent, now, input.ttlSeconds);
  return { token, agent };
}
