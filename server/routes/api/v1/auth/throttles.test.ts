/**
 * GET/DELETE /api/v1/auth/throttles: an admin sees the throttled pairs that
 * name its agents and the addresses they came from (not other accounts'
 * pairs, not pairs of unknown e-mails), with when each waits until; clearing
 * one lets that pair or address sign in again at once; agents get 403; an id
 * the admin cannot see is 404 and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOtherAccount, OTHER_PASSWORD } from '../../../../../test/helpers/accounts.js';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

describe('sign-in throttles for admins', () => {
  const now = Date.parse('2026-05-01T09:00:00Z');
  let t: TestApp;
  let other: { token: string };
  let agentToken: string;
  const login = (email: string, password: string, from: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'x-forwarded-for': from }, payload: { email, password } });
  const list = (token = t.adminToken) => t.app.inject({ method: 'GET', url: '/api/v1/auth/throttles', headers: bearer(token) });
  const clear = (id: number, token = t.adminToken) => t.app.inject({ method: 'DELETE', url: `/api/v1/auth/throttles/${id}`, headers: bearer(token) });

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now, workers: false });
    other = await createOtherAccount(t, 'boss@other.example');
    agentToken = (await addAgent(t, { email: 'agent@example.com' })).token;
  });
  afterAll(() => t.close());

  it('is empty when nothing failed', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it("lists the account's throttled pairs and their sources, newest first; other accounts see only theirs", async () => {
    for (let i = 0; i < 5; i++) expect((await login(ADMIN_EMAIL, 'wrong', '203.0.113.5')).statusCode).toBe(401);
    for (let i = 0; i < 2; i++) expect((await login('boss@other.example', 'wrong', '203.0.113.6')).statusCode).toBe(401);
    expect((await login('nobody@example.com', 'wrong', '203.0.113.7')).statusCode).toBe(401);

    const mine = (await list()).json();
    expect(mine).toEqual([
      {
        id: expect.any(Number),
        kind: 'source',
        address: '203.0.113.5',
        email: null,
        failures: 5,
        first_failure_at: now,
        last_failure_at: now,
        blocked_until: null,
        expires_at: now + 24 * 3600_000,
      },
      {
        id: expect.any(Number),
        kind: 'pair',
        address: '203.0.113.5',
        email: ADMIN_EMAIL,
        failures: 5,
        first_failure_at: now,
        last_failure_at: now,
        blocked_until: now + 15_000,
        expires_at: now + 24 * 3600_000,
      },
    ]);
    const theirs = (await list(other.token)).json();
    expect(theirs.map((r: { kind: string; address: string; email: string | null }) => [r.kind, r.address, r.email])).toEqual([
      ['source', '203.0.113.6', null],
      ['pair', '203.0.113.6', 'boss@other.example'],
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/throttles?limit=1', headers: bearer(t.adminToken) })).json()).toHaveLength(1);
  });

  it('clearing a pair lets it sign in at once; the answer is 204 and the row is gone', async () => {
    expect((await login(ADMIN_EMAIL, ADMIN_PASSWORD, '203.0.113.5')).statusCode).toBe(429);
    const pair = (await list()).json().find((r: { kind: string }) => r.kind === 'pair');
    const res = await clear(pair.id);
    expect(res.statusCode).toBe(204);
    expect((await list()).json().map((r: { id: number }) => r.id)).not.toContain(pair.id);
    expect((await login(ADMIN_EMAIL, ADMIN_PASSWORD, '203.0.113.5')).statusCode).toBe(200);
    expect((await clear(pair.id)).statusCode).toBe(404);
  });

  it("refuses agents (403) and another account's throttle (404), changing nothing", async () => {
    const theirs = (await list(other.token)).json();
    expect((await list(agentToken)).statusCode).toBe(403);
    expect((await clear(theirs[0].id, agentToken)).statusCode).toBe(403);
    const refused = await clear(theirs[0].id);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('not_found');
    expect((await clear(999_999)).statusCode).toBe(404);
    expect((await clear(0)).statusCode).toBe(404);
    expect((await list(other.token)).json()).toEqual(theirs);
    // The other account's admin clears its own source.
    expect((await clear(theirs[0].id, other.token)).statusCode).toBe(204);
    expect((await login('boss@other.example', OTHER_PASSWORD, '203.0.113.6')).statusCode).toBe(200);
  });
});
