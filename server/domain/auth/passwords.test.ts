/**
 * scrypt at OWASP's cost (#15 item 11, docs/SECURITY.md §11): new hashes are
 * made at N=2^17, r=8, p=1 (Node's default 32 MiB memory limit would refuse
 * them: maxmem is given); a hash made at an older, lower cost still signs in
 * and is made again at the current cost by that sign-in, not by a failed one;
 * stored parameters that are not ours are refused, not run (the dummy hash
 * is checked instead). The rest of the
 * suite hashes at a low cost (test/setup/passwordCost.ts); these tests put the
 * production cost back. Both stores (the sign-in rewrites a row).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { dummyHash, hashPassword, lowerCostForTests, needsRehash, PASSWORD_COST, restoreProductionCost, verifyPassword } from './passwords.js';

const TEST_COST = { N: 1024, r: 8, p: 1 };

/** A hash as the service made them before: N=2^14 (16 MiB). */
function oldHash(password: string): string {
  const salt = crypto.randomBytes(16);
  const hash = crypto.scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64'), hash.toString('base64')].join('$');
}

describe('password hashing cost', () => {
  beforeAll(() => restoreProductionCost());
  afterAll(() => lowerCostForTests(TEST_COST));

  it('makes new hashes at N=2^17, r=8, p=1, and verifies them', { timeout: 60_000 }, async () => {
    expect(PASSWORD_COST).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
    // Unknown e-mails are checked at the same cost.
    expect(dummyHash()).toMatch(/^scrypt\$131072\$8\$1\$/);
  });

  it('verifies an older, cheaper hash and says it needs making again', async () => {
    const old = oldHash('s3cret-password');
    expect(await verifyPassword('s3cret-password', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
  });

  it('refuses stored parameters that are not ours instead of running them', { timeout: 60_000 }, async () => {
    const salt = Buffer.alloc(16).toString('base64');
    const hash = Buffer.alloc(32).toString('base64');
    // Refused, not run: the one scrypt made is the dummy's, at the current cost (never the stored N of 2^30).
    const calls = vi.spyOn(crypto, 'scrypt');
    try {
      for (const params of ['1073741824$8$1', '1000$8$1', '131072$0$1', '131072$8$0', '131072$64$1', 'x$8$1']) {
        calls.mockClear();
        expect(await verifyPassword('anything', `scrypt$${params}$${salt}$${hash}`)).toBe(false);
        expect(calls).toHaveBeenCalledTimes(1);
        expect(calls.mock.calls[0][3]).toMatchObject(PASSWORD_COST);
      }
      expect(await verifyPassword('anything', '!')).toBe(false);
    } finally {
      calls.mockRestore();
    }
  });
});

describe('transparent rehash at sign-in', () => {
  let t: TestApp;
  const EMAIL = 'old-hash@example.com';
  const PASSWORD = 'an old password, still good';

  const hashOf = async () =>
    (await t.app.ctx.db.selectFrom('agents').select('password_hash').where('email', '=', EMAIL).executeTakeFirstOrThrow()).password_hash;
  const signIn = (password: string) => t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: EMAIL, password } });

  beforeAll(async () => {
    t = await createTestApp();
    restoreProductionCost();
    const now = Date.now();
    await t.app.ctx.db
      .insertInto('agents')
      .values({
        account_id: t.app.ctx.defaultAccountId,
        name: 'Old timer',
        email: EMAIL,
        password_hash: oldHash(PASSWORD),
        role: 'agent',
        phone: null,
        photo_url: null,
        status: 'offline',
        active: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  afterAll(async () => {
    lowerCostForTests(TEST_COST);
    await t.close();
  });

  it('a failed sign-in leaves the old hash; the next successful one rewrites it at the current cost, and it keeps working', { timeout: 60_000 }, async () => {
    const old = await hashOf();
    expect(old).toMatch(/^scrypt\$16384\$8\$1\$/);

    expect((await signIn('not the password')).statusCode).toBe(401);
    expect(await hashOf()).toBe(old);

    expect((await signIn(PASSWORD)).statusCode).toBe(200);
    const rewritten = await hashOf();
    expect(rewritten).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword(PASSWORD, rewritten)).toBe(true);

    // Signs in again with the new hash, which is not made again.
    expect((await signIn(PASSWORD)).statusCode).toBe(200);
    expect(await hashOf()).toBe(rewritten);
  });
});
