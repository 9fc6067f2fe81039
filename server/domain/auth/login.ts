/**
 * Sign-in: checks the password (in constant time, also for unknown e-mails),
 * throttles guessing per e-mail and per IP, and issues a token.
 */
import type { Db } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { DUMMY_HASH, verifyPassword } from './passwords.js';
import { issueToken } from './tokens.js';

const WINDOW_MS = 15 * 60 * 1000;
/** Failures allowed per window: a few per e-mail, more per IP (offices share one). */
const MAX_FAILURES = { email: 10, ip: 100 } as const;
const LOCK_MS = 15 * 60 * 1000;

/** A login_attempts row started before this is over (its window, and any lock taken in it): the retention worker deletes it. */
export const loginAttemptsCutoff = (now: number): number => now - WINDOW_MS - LOCK_MS;

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
  const email = input.email.trim().toLowerCase();
  const keys = [`email:${email}`, `ip:${input.ip}`];
  await assertNotLocked(db, keys, now);

  const agent = await db.selectFrom('agents').selectAll().where('email', '=', email).executeTakeFirst();
  const ok = await verifyPassword(input.password, agent?.password_hash ?? DUMMY_HASH);
  if (!agent || !ok || agent.active !== 1) {
    await recordFailure(db, keys, now);
    throw new AppError('invalid_credentials');
  }
  await db.deleteFrom('login_attempts').where('key', '=', keys[0]).execute();
  const token = await issueToken(db, agent, now, input.ttlSeconds);
  return { token, agent };
}

async function assertNotLocked(db: Db, keys: string[], now: number): Promise<void> {
  const rows = await db.selectFrom('login_attempts').selectAll().where('key', 'in', keys).execute();
  const lockedUntil = Math.max(0, ...rows.map((r) => r.locked_until ?? 0));
  if (lockedUntil > now) {
    const seconds = Math.ceil((lockedUntil - now) / 1000);
    throw new AppError('too_many_requests', `Too many failed sign-ins; try again in ${Math.ceil(seconds / 60)} minute(s).`, {
      'retry-after': String(seconds),
    });
  }
}

async function recordFailure(db: Db, keys: string[], now: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    for (const key of keys) {
      const row = await tx.selectFrom('login_attempts').selectAll().where('key', '=', key).executeTakeFirst();
      if (!row || now - row.window_started_at > WINDOW_MS) {
        await tx.deleteFrom('login_attempts').where('key', '=', key).execute();
        await tx.insertInto('login_attempts').values({ key, failures: 1, window_started_at: now, locked_until: null }).execute();
        continue;
      }
      const failures = row.failures + 1;
      await tx
        .updateTable('login_attempts')
        .set({ failures, locked_until: failures >= MAX_FAILURES[key.startsWith('ip:') ? 'ip' : 'email'] ? now + LOCK_MS : row.locked_until })
        .where('key', '=', key)
        .execute();
    }
  });
}
