/**
 * Sign-in: checks the password (in constant time, also for unknown e-mails),
 * throttles failures per (address, e-mail) pair and per address (throttles.ts),
 * and issues a token.
 */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { DUMMY_HASH, verifyPassword } from './passwords.js';
import { assertNotThrottled, clearPairThrottle, recordSignInFailure } from './throttles.js';
import { issueToken } from './tokens.js';

export interface LoginInput {
  email: string;
  password: string;
  ip: string;
}

export async function login(ctx: AppContext, input: LoginInput): Promise<{ token: string; agent: Agent }> {
  const { db } = ctx;
  const now = ctx.clock();
  const keys = { address: input.ip, email: input.email.trim().toLowerCase() };
  await assertNotThrottled(db, keys, now);

  const agent = await db.selectFrom('agents').selectAll().where('email', '=', keys.email).executeTakeFirst();
  const ok = await verifyPassword(input.password, agent?.password_hash ?? DUMMY_HASH);
  if (!agent || !ok || agent.active !== 1) {
    await recordSignInFailure(db, { ...keys, accountId: agent?.account_id ?? null }, now);
    throw new AppError('invalid_credentials');
  }
  await clearPairThrottle(db, keys);
  const token = await issueToken(db, agent, now, ctx.config.tokenTtlSeconds);
  return { token, agent };
}
