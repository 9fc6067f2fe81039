/**
 * Sign-in and sessions: failed sign-ins are throttled per (address, e-mail)
 * pair and per address with growing delays — 429 with Retry-After, the right
 * password refused too from that pair or address — while nobody can lock a
 * person out: the right password from another address signs in at once,
 * whatever failed before; unknown e-mails are throttled exactly like known
 * ones; 100 failures from one address make the address wait; tokens expire
 * after TOKEN_TTL_SECONDS (a test clock), and logout, deactivation and a
 * password change revoke them for the API, the cookie and the stream; a
 * demotion takes effect on the next call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../helpers/accounts.js';
import { listen, StreamClient, streamUrl } from '../helpers/realtime.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, type TestApp } from '../helpers/testApp.js';

const SECOND = 1000;
const MINUTE = 60_000;

describe('sign-in throttling (no lockout)', () => {
  let now = Date.parse('2026-04-01T09:00:00Z');
  let t: TestApp;
  let ip = 0;
  /** Each attempt from a new address unless one is given. */
  const login = (email: string, password: string, from = `198.51.100.${(ip++ % 250) + 1}`) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'x-forwarded-for': from }, payload: { email, password } });

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now, workers: false });
    await addAgent(t, { email: 'locked@example.com', password: 'right-password-1' });
    await addAgent(t, { email: 'bystander@example.com', password: 'right-password-2' });
  });
  afterAll(() => t.close());

  it('makes an (address, e-mail) pair wait after 5 failures, the right password too, with delays doubling up to 15 minutes', async () => {
    const from = '192.0.2.10';
    for (let i = 0; i < 5; i++) {
      const res = await login(i % 2 ? 'LOCKED@example.com' : ' locked@example.com', `wrong-${i}`, from);
      expect(res.statusCode, `failure ${i + 1}`).toBe(401);
      expect(res.json().error.code).toBe('invalid_credentials');
    }
    const refused = await login('locked@example.com', 'right-password-1', from);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({ code: 'too_many_requests', message: expect.stringMatching(/failed sign-ins.*15 second/) });
    expect(refused.headers['retry-after']).toBe('15');
    expect(refused.body).not.toMatch(/token/);

    // Each further failure, once the wait is over, doubles it, up to 15 minutes.
    let wait = 15;
    for (const next of [30, 60, 120, 240, 480, 900, 900]) {
      now += wait * SECOND;
      expect((await login('locked@example.com', 'still-wrong', from)).statusCode).toBe(401);
      const res = await login('locked@example.com', 'right-password-1', from);
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBe(next);
      wait = next;
    }
    expect((await login('locked@example.com', 'right-password-1', from)).json().error.message).toMatch(/15 minute/);
    now += (wait - 1) * SECOND;
    expect((await login('locked@example.com', 'right-password-1', from)).statusCode).toBe(429);
    now += SECOND;
    expect((await login('locked@example.com', 'right-password-1', from)).statusCode).toBe(200);
    // The success cleared the pair: it has its 5 free failures again.
    for (let i = 0; i < 5; i++) expect((await login('locked@example.com', 'wrong', from)).statusCode).toBe(401);
    expect((await login('locked@example.com', 'right-password-1', from)).statusCode).toBe(429);
    now += 15 * SECOND;
    expect((await login('locked@example.com', 'right-password-1', from)).statusCode).toBe(200);
  }, 120_000);

  it('cannot lock a person out: the right password from another address signs in at once, whatever failed elsewhere', async () => {
    // An attacker fails against the admin's e-mail as fast as it is let, for hours, from a few addresses.
    for (const attacker of ['203.0.113.7', '203.0.113.8', '203.0.113.9']) {
      for (let failures = 0; failures < 12;) {
        const res = await login(ADMIN_EMAIL, `guess-${failures}`, attacker);
        if (res.statusCode === 429) now += Number(res.headers['retry-after']) * SECOND;
        else {
          expect(res.statusCode).toBe(401);
          failures++;
        }
      }
      expect((await login(ADMIN_EMAIL, ADMIN_PASSWORD, attacker)).statusCode).toBe(429);
    }
    // The admin, from its own address, is not held back; nor is anyone else.
    expect((await login(ADMIN_EMAIL, ADMIN_PASSWORD, '192.0.2.20')).statusCode).toBe(200);
    expect((await login(ADMIN_EMAIL, ADMIN_PASSWORD)).statusCode).toBe(200);
    expect((await login('bystander@example.com', 'right-password-2', '203.0.113.7')).statusCode).toBe(200);
  }, 120_000);

  it('a success clears the count: failures before it do not add up with later ones', async () => {
    for (let i = 0; i < 9; i++) expect((await login('bystander@example.com', 'wrong')).statusCode).toBe(401);
    expect((await login('bystander@example.com', 'right-password-2')).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) expect((await login('bystander@example.com', 'wrong')).statusCode).toBe(401);
    expect((await login('bystander@example.com', 'right-password-2')).statusCode).toBe(200);
    // From one address too.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expect((await login('bystander@example.com', 'wrong', '192.0.2.30')).statusCode).toBe(401);
      expect((await login('bystander@example.com', 'right-password-2', '192.0.2.30')).statusCode).toBe(200);
    }
  }, 120_000);

  it('answers an unknown e-mail exactly as a known one (no way to tell which exist)', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 11; i++) {
      const a = await login('locked@example.com', 'wrong', '192.0.2.40');
      const b = await login('nobody-here@example.com', 'wrong', '192.0.2.41');
      known.push(a.statusCode);
      unknown.push(b.statusCode);
      expect(b.json().error.message).toBe(a.json().error.message);
      expect(b.headers['retry-after']).toBe(a.headers['retry-after']);
    }
    expect(unknown).toEqual(known);
    expect(known.slice(-1)).toEqual([429]);
    now += 16 * MINUTE;
  });

  it('locks one address after 100 failures, whatever the e-mails; other addresses go on', async () => {
    const address = '203.0.113.66';
    for (let i = 0; i < 100; i++) expect((await login(`guess${i}@example.com`, 'wrong', address)).statusCode).toBe(401);
    const refused = await login(ADMIN_EMAIL, ADMIN_PASSWORD, address);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(ADMIN_EMAIL, ADMIN_PASSWORD, '203.0.113.67')).statusCode).toBe(200);
    // The address's wait grows too, and a success from it does not reset the address.
    now += 15 * SECOND;
    expect((await login(ADMIN_EMAIL, ADMIN_PASSWORD, address)).statusCode).toBe(200);
    expect((await login('guess-more@example.com', 'wrong', address)).statusCode).toBe(401);
    expect((await login(ADMIN_EMAIL, ADMIN_PASSWORD, address)).headers['retry-after']).toBe('30');
  }, 120_000);
});

describe('token expiry and revocation', () => {
  let now = Date.parse('2026-04-02T09:00:00Z');
  let t: TestApp;
  let base: string;
  const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/v1/me', headers });

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now, env: { TOKEN_TTL_SECONDS: '3600' } });
    base = await listen(t.app);
  });
  afterAll(() => t.close());

  it('expires a token after TOKEN_TTL_SECONDS, for the API, the cookie and the stream', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const token = login.json().token as string;
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect(login.cookies.find((c) => c.name === 'parley_token')?.maxAge).toBe(3600);
    now += 3599_000;
    expect((await me(bearer(token))).statusCode).toBe(200);
    expect((await me({ cookie })).statusCode).toBe(200);
    now += 1000;
    expect((await me(bearer(token))).statusCode).toBe(401);
    expect((await me({ cookie })).statusCode).toBe(401);
    const stream = await StreamClient.open(streamUrl(base, token));
    expect((await stream.waitClosed()).code).toBe(4401);
    // A fresh sign-in works (and serves the next tests: the bootstrap token expired too).
    t.adminToken = await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await me(bearer(t.adminToken))).statusCode).toBe(200);
  });

  it('logout revokes that token everywhere (other sessions stay)', async () => {
    const token = await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const other = await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(token) })).statusCode).toBe(204);
    expect((await me(bearer(token))).statusCode).toBe(401);
    expect((await me({ cookie: `parley_token=${token}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(token), payload: { safe_url: null } })).statusCode).toBe(401);
    expect((await StreamClient.open(streamUrl(base, token)).then((s) => s.waitClosed())).code).toBe(4401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(token) })).statusCode).toBe(401);
    expect((await me(bearer(other))).statusCode).toBe(200);
  });

  it('deactivation revokes every token of the agent and closes its open stream at once', async () => {
    const agent = await addAgent(t, { email: 'leaving@example.com' });
    const second = await t.login('leaving@example.com', 'agent-password-1');
    const stream = await StreamClient.ready(streamUrl(base, agent.token));
    const res = await t.app.inject({ method: 'PATCH', url: `/api/v1/agents/${agent.id}`, headers: bearer(t.adminToken), payload: { active: false } });
    expect(res.statusCode).toBe(200);
    expect((await stream.waitClosed()).code).toBe(4401);
    for (const token of [agent.token, second]) expect((await me(bearer(token))).statusCode).toBe(401);
    const relogin = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'leaving@example.com', password: 'agent-password-1' } });
    expect(relogin.statusCode).toBe(401);
    expect(relogin.json().error.code).toBe('invalid_credentials');
  });

  it("a password change by an admin closes the agent's open stream at once, not at the next ping", async () => {
    const agent = await addAgent(t, { email: 'reset@example.com' });
    const stream = await StreamClient.ready(streamUrl(base, agent.token));
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/agents/${agent.id}`,
      headers: bearer(t.adminToken),
      payload: { password: 'a-fresh-password-1' },
    });
    expect(res.statusCode).toBe(200);
    // Well before the 25 s ping that rechecks tokens.
    expect((await stream.waitClosed(5000)).code).toBe(4401);
  });

  it('a password change by an admin revokes the sessions; a demotion applies to the next call', async () => {
    const agent = await addAgent(t, { email: 'promoted@example.com', role: 'admin' });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(agent.token) })).statusCode).toBe(200);
    await t.app.inject({ method: 'PATCH', url: `/api/v1/agents/${agent.id}`, headers: bearer(t.adminToken), payload: { role: 'agent' } });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(agent.token) })).statusCode).toBe(403);
    await t.app.inject({ method: 'PATCH', url: `/api/v1/agents/${agent.id}`, headers: bearer(t.adminToken), payload: { password: 'a-new-password-1' } });
    expect((await me(bearer(agent.token))).statusCode).toBe(401);
  });
});
