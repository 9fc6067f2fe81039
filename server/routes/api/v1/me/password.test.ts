/**
 * PUT /api/v1/me/password and POST /api/v1/auth/logout-all: changing one's own
 * password needs the current one, keeps the session that asked and ends every
 * other session of the person (tokens, cookies, open streams at once), not
 * other people's; a wrong current password is 403 wrong_password, counted as
 * a failed sign-in (throttled after 5), and changes nothing. "Sign out
 * everywhere" ends every session of the person, the one that asked included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { listen, StreamClient, streamUrl } from '../../../../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

describe('own password and signing out everywhere', () => {
  let t: TestApp;
  let base: string;
  const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/v1/me', headers });
  const change = (token: string, payload: object, from = '192.0.2.1') =>
    t.app.inject({ method: 'PUT', url: '/api/v1/me/password', headers: { ...bearer(token), 'x-forwarded-for': from }, payload });
  const cookieSession = async (email: string, password: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
    const c = Object.fromEntries(res.cookies.map((x) => [x.name, x.value]));
    return { cookie: `parley_token=${c.parley_token}; parley_csrf=${c.parley_csrf}`, csrf: c.parley_csrf };
  };
  const hashOf = async (id: number) =>
    (await t.app.ctx.db.selectFrom('agents').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow()).password_hash;

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
  });
  afterAll(() => t.close());

  it("changes the password, keeps this session and ends the person's other sessions (API, cookie, stream), not other people's", async () => {
    const agent = await addAgent(t, { email: 'changer@example.com', password: 'old-password-1' });
    const other = await t.login('changer@example.com', 'old-password-1');
    const cookie = await cookieSession('changer@example.com', 'old-password-1');
    const stream = await StreamClient.ready(streamUrl(base, other));
    const colleague = await addAgent(t, { email: 'colleague@example.com' });

    const res = await change(agent.token, { current_password: 'old-password-1', new_password: 'new-password-2' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    expect((await me(bearer(agent.token))).statusCode).toBe(200);
    expect((await me(bearer(other))).statusCode).toBe(401);
    expect((await me({ cookie: cookie.cookie })).statusCode).toBe(401);
    expect((await stream.waitClosed(5000)).code).toBe(4401);
    expect((await me(bearer(colleague.token))).statusCode).toBe(200);

    const old = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'changer@example.com', password: 'old-password-1' } });
    expect(old.statusCode).toBe(401);
    expect(typeof (await t.login('changer@example.com', 'new-password-2'))).toBe('string');
  });

  it('works for a cookie session with the CSRF header, which stays signed in', async () => {
    await addAgent(t, { email: 'cookie@example.com', password: 'old-password-1' });
    const session = await cookieSession('cookie@example.com', 'old-password-1');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/me/password',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
      payload: { current_password: 'old-password-1', new_password: 'new-password-2' },
    });
    expect(res.statusCode).toBe(204);
    expect((await me({ cookie: session.cookie })).statusCode).toBe(200);
  });

  it('refuses a wrong current password (403 wrong_password) and changes nothing; guessing it is throttled like sign-in', async () => {
    const agent = await addAgent(t, { email: 'guarded@example.com', password: 'old-password-1' });
    const other = await t.login('guarded@example.com', 'old-password-1');
    const before = await hashOf(agent.id);
    for (let i = 0; i < 5; i++) {
      const res = await change(agent.token, { current_password: `guess-${i}`, new_password: 'new-password-2' }, '192.0.2.50');
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toEqual({ code: 'wrong_password', message: expect.stringMatching(/current password is wrong/) });
    }
    const throttled = await change(agent.token, { current_password: 'old-password-1', new_password: 'new-password-2' }, '192.0.2.50');
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBe('15');
    expect(await hashOf(agent.id)).toBe(before);
    expect((await me(bearer(other))).statusCode).toBe(200);
    expect((await me(bearer(agent.token))).statusCode).toBe(200);
  });

  it('refuses a new password that is too short or a body of the wrong shape (400), changing nothing', async () => {
    const agent = await addAgent(t, { email: 'short@example.com', password: 'old-password-1' });
    const before = await hashOf(agent.id);
    const short = await change(agent.token, { current_password: 'old-password-1', new_password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toEqual({ code: 'validation_failed', message: 'password must have at least 8 characters.' });
    for (const payload of [
      {},
      { current_password: 'old-password-1' },
      { new_password: 'new-password-2' },
      { current_password: 5, new_password: 'x'.repeat(9) },
    ]) {
      expect((await change(agent.token, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await hashOf(agent.id)).toBe(before);
    expect((await t.app.inject({ method: 'PUT', url: '/api/v1/me/password', payload: { current_password: 'a', new_password: 'b' } })).statusCode).toBe(401);
  });

  it('"sign out everywhere" ends every session of the person, this one included, and clears the cookies', async () => {
    const agent = await addAgent(t, { email: 'everywhere@example.com' });
    const second = await t.login('everywhere@example.com', 'agent-password-1');
    const session = await cookieSession('everywhere@example.com', 'agent-password-1');
    const stream = await StreamClient.ready(streamUrl(base, second));
    const colleague = await addAgent(t, { email: 'stays@example.com' });

    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout-all', headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } });
    expect(res.statusCode).toBe(204);
    expect(res.cookies.find((c) => c.name === 'parley_token')?.value).toBe('');
    for (const headers of [bearer(agent.token), bearer(second), { cookie: session.cookie }]) expect((await me(headers)).statusCode).toBe(401);
    expect((await stream.waitClosed(5000)).code).toBe(4401);
    expect((await me(bearer(colleague.token))).statusCode).toBe(200);
    // Signing in again works.
    expect(typeof (await t.login('everywhere@example.com', 'agent-password-1'))).toBe('string');
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout-all', headers: bearer(agent.token) })).statusCode).toBe(401);
  });
});
