/**
 * Answers that do not tell which e-mails have accounts (#31 item 6), shown
 * by the work each path does rather than by its timing (tests never fail on
 * timing): every failed sign-in — an unknown e-mail, an invited agent
 * without a password yet, one whose password an administrator reset, a
 * deactivated one, a wrong password — makes exactly one scrypt hash at the
 * current cost, through the real function; and forgot-password answers
 * before the address is even looked up, so a known address (a link and a
 * mail written) answers no later than an unknown one. Both stores.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { waitFor } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, testDialect, type TestApp, asAdmin } from '../../../../../test/helpers/testApp.js';

describe('equal work for every sign-in and forgot-password path', () => {
  let t: TestApp;
  let address = 0;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  // Each from its own address, so no throttle answers first.
  const post = (url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress: `10.8.${Math.floor(++address / 250)}.${address % 250}` });

  it('every failed sign-in hashes once, at the cost of a real hash', async () => {
    await addAgent(t, { email: 'eq-normal@example.com' });
    const invited = await asAdmin(t, 'POST', '/api/v1/agents', { name: 'Invited', email: 'eq-invited@example.com', role: 'agent' });
    expect(invited.statusCode).toBe(201);
    const forced = await addAgent(t, { email: 'eq-forced@example.com' });
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/agents/${forced.id}/password-reset`, headers: bearer(t.adminToken) })).statusCode).toBe(202);
    const off = await addAgent(t, { email: 'eq-off@example.com' });
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/api/v1/agents/${off.id}`, headers: bearer(t.adminToken), payload: { active: false } })).statusCode,
    ).toBe(200);
    const real = await t.app.ctx.db.selectFrom('agents').select('password_hash').where('email', '=', 'eq-normal@example.com').executeTakeFirstOrThrow();
    const [, n, r, p] = real.password_hash.split('$');

    const scrypt = vi.spyOn(crypto, 'scrypt');
    try {
      for (const [email, password] of [
        ['eq-normal@example.com', 'wrong-password-1'],
        ['eq-nobody@example.com', 'any-password-1'],
        ['eq-invited@example.com', 'any-password-1'],
        ['eq-forced@example.com', 'agent-password-1'],
        ['eq-off@example.com', 'agent-password-1'],
      ]) {
        scrypt.mockClear();
        const res = await post('/api/v1/auth/login', { email, password });
        expect(res.statusCode, email).toBe(401);
        expect(res.json().error.code).toBe('invalid_credentials');
        expect(scrypt, email).toHaveBeenCalledTimes(1);
        expect(scrypt.mock.calls[0][3], email).toMatchObject({ N: Number(n), r: Number(r), p: Number(p) });
      }
    } finally {
      scrypt.mockRestore();
    }
  });

  it('forgot-password answers before the address is looked up; the mail follows', async () => {
    const agent = await addAgent(t, { email: 'eq-forgot@example.com' });
    const resetLink = () =>
      t.app.ctx.db.selectFrom('password_links').select('id').where('agent_id', '=', agent.id).where('kind', '=', 'reset').executeTakeFirst();
    // Hold what the lookup needs: on SQLite the one connection, on PostgreSQL the agents table.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const hold = t.app.ctx.db.transaction().execute(async (tx) => {
      if (testDialect() === 'postgres') await sql`lock table agents in access exclusive mode`.execute(tx);
      else await tx.selectFrom('agents').select('id').limit(1).execute();
      holding();
      await released;
    });
    await held;
    try {
      for (const email of ['eq-forgot@example.com', 'eq-unknown@example.com']) {
        const answer = await Promise.race([
          post('/api/v1/auth/forgot-password', { email }),
          new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), 10_000)),
        ]);
        expect(answer === 'no answer' ? answer : answer.statusCode, email).toBe(202);
      }
      // Nothing written yet (on SQLite the test's own query would wait for the held connection too).
      if (testDialect() === 'postgres') expect(await resetLink()).toBeUndefined();
    } finally {
      release();
      await hold;
    }
    await waitFor(resetLink);
  });
});
