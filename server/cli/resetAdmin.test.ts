/**
 * reset-admin: the printed one-time password signs in once; that session can
 * only choose a new password (or sign out) — every other call answers 403
 * password_change_required and its stream closes with 4403 — and the new
 * password then works as any other. The reset ends the administrator's
 * sessions (API and stream) and its unused password links, stops the old
 * password, and makes a deactivated administrator active again. Unknown
 * people, agents and bad addresses are refused with a sentence, changing
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { listen, StreamClient, streamUrl } from '../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { resetAdmin, ResetRefused } from './resetAdmin.js';

describe('npm run reset-admin', () => {
  let t: TestApp;
  let base: string;
  const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  const changePassword = (token: string, current: string, next: string) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/me/password', headers: bearer(token), payload: { current_password: current, new_password: next } });
  const stateOf = async (email: string) =>
    (await t.app.ctx.db.selectFrom('agents').select('password_state').where('email', '=', email).executeTakeFirstOrThrow()).password_state;

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
  });
  afterAll(() => t.close());

  it('prints a one-time password, ends the sessions and links of the administrator and reactivates it', async () => {
    const boss = await addAgent(t, { email: 'boss2@example.com', role: 'admin', password: 'old-password-1' });
    const stream = await StreamClient.ready(streamUrl(base, boss.token));
    const link = await t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: 'boss2@example.com' } });
    expect(link.statusCode).toBe(202);
    // The link is written once the answer has gone out (equal timing for every address).
    await waitFor(() => t.app.ctx.db.selectFrom('password_links').select('id').where('agent_id', '=', boss.id).where('used_at', 'is', null).executeTakeFirst());
    const off = await t.app.inject({ method: 'PATCH', url: `/api/v1/agents/${boss.id}`, headers: bearer(t.adminToken), payload: { active: false } });
    expect(off.json().active).toBe(false);

    const done = await resetAdmin(t.config, ' Boss2@Example.com ');
    expect(done).toEqual({ email: 'boss2@example.com', password: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/), reactivated: true });
    expect(await stateOf('boss2@example.com')).toBe('one_time');
    // Another run prints another password.
    expect((await resetAdmin(t.config, 'boss2@example.com')).password).not.toBe(done.password);

    expect((await get('/api/v1/me', boss.token)).statusCode).toBe(401);
    expect((await stream.waitClosed(5000)).code).toBe(4401);
    expect((await login('boss2@example.com', 'old-password-1')).statusCode).toBe(401);
    const links = await t.app.ctx.db.selectFrom('password_links').select('used_at').where('agent_id', '=', boss.id).execute();
    expect(links.length).toBeGreaterThan(0);
    expect(links.every((l) => l.used_at !== null)).toBe(true);
  });

  it('signs in once with it; that session must choose a new password before anything else', async () => {
    await addAgent(t, { email: 'boss3@example.com', role: 'admin' });
    const { password } = await resetAdmin(t.config, 'boss3@example.com');

    const first = await login('boss3@example.com', password);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ must_change_password: true, agent: { email: 'boss3@example.com', role: 'admin' } });
    const token = first.json().token as string;
    expect(await stateOf('boss3@example.com')).toBe('one_time_used');

    // Only once.
    const again = await login('boss3@example.com', password);
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe('one_time_password_used');

    // Everything else waits for the new password: the agent API, admin routes, the stream.
    for (const url of ['/api/v1/me', '/api/v1/chats', '/api/v1/agents', '/api/v1/settings']) {
      const res = await get(url, token);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toEqual({ code: 'password_change_required', message: expect.stringMatching(/one-time password/) });
    }
    const status = await t.app.inject({ method: 'PUT', url: '/api/v1/me/status', headers: bearer(token), payload: { status: 'online' } });
    expect(status.json().error.code).toBe('password_change_required');
    const stream = await StreamClient.open(streamUrl(base, token));
    expect(await stream.waitClosed(5000)).toEqual({ code: 4403, reason: expect.stringMatching(/choose your own password/) });

    // The new password may not be too short, and the current one must be the one-time password.
    const short = await changePassword(token, password, 'short');
    expect(short.statusCode).toBe(400);
    const wrong = await changePassword(token, 'not-it-at-all', 'my-own-password-1');
    expect(wrong.json().error.code).toBe('wrong_password');
    expect(await stateOf('boss3@example.com')).toBe('one_time_used');

    const changed = await changePassword(token, password, 'my-own-password-1');
    expect(changed.statusCode).toBe(204);
    expect(await stateOf('boss3@example.com')).toBe('chosen');
    expect((await get('/api/v1/me', token)).statusCode).toBe(200);
    expect((await get('/api/v1/agents', token)).statusCode).toBe(200);
    expect((await login('boss3@example.com', password)).json().error.code).toBe('invalid_credentials');
    const own = await login('boss3@example.com', 'my-own-password-1');
    expect(own.json()).toMatchObject({ must_change_password: false });
  });

  it('lets that session sign out, and a new run starts over', async () => {
    await addAgent(t, { email: 'boss4@example.com', role: 'admin' });
    const first = await resetAdmin(t.config, 'boss4@example.com');
    const token = (await login('boss4@example.com', first.password)).json().token as string;
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(204);
    expect((await get('/api/v1/me', token)).statusCode).toBe(401);
    expect((await login('boss4@example.com', first.password)).json().error.code).toBe('one_time_password_used');

    const second = await resetAdmin(t.config, 'boss4@example.com');
    const res = await login('boss4@example.com', second.password);
    expect(res.statusCode).toBe(200);
    expect(res.json().must_change_password).toBe(true);
  });

  it('of two sign-ins racing with the one-time password, exactly one gets a session', async () => {
    await addAgent(t, { email: 'boss5@example.com', role: 'admin' });
    const { password } = await resetAdmin(t.config, 'boss5@example.com');
    const answers = await Promise.all([login('boss5@example.com', password), login('boss5@example.com', password)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    const tokens = await t.app.ctx.db
      .selectFrom('auth_tokens')
      .innerJoin('agents', 'agents.id', 'auth_tokens.agent_id')
      .select('auth_tokens.id')
      .where('agents.email', '=', 'boss5@example.com')
      .where('auth_tokens.revoked_at', 'is', null)
      .execute();
    expect(tokens).toHaveLength(1); // addAgent's session ended with the reset: only the winner's is left
  });

  it('a password link or an administrator setting the password also ends the one-time state', async () => {
    const boss = await addAgent(t, { email: 'boss6@example.com', role: 'admin' });
    await resetAdmin(t.config, 'boss6@example.com');
    const set = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/agents/${boss.id}`,
      headers: bearer(t.adminToken),
      payload: { password: 'set-by-admin-1' },
    });
    expect(set.statusCode).toBe(200);
    expect(await stateOf('boss6@example.com')).toBe('chosen');
    expect((await login('boss6@example.com', 'set-by-admin-1')).json().must_change_password).toBe(false);
  });

  it('refuses unknown people, agents and bad addresses, changing nothing', async () => {
    const plain = await addAgent(t, { email: 'plain@example.com', role: 'agent' });
    const before = await t.app.ctx.db.selectFrom('agents').select(['id', 'password_hash', 'password_state', 'updated_at']).orderBy('id').execute();
    await expect(resetAdmin(t.config, 'nobody@example.com')).rejects.toThrow(/No one signs in with nobody@example.com/);
    await expect(resetAdmin(t.config, 'plain@example.com')).rejects.toThrow(/is not an administrator/);
    await expect(resetAdmin(t.config, 'not an address')).rejects.toBeInstanceOf(ResetRefused);
    expect(await t.app.ctx.db.selectFrom('agents').select(['id', 'password_hash', 'password_state', 'updated_at']).orderBy('id').execute()).toEqual(before);
    expect((await get('/api/v1/me', plain.token)).statusCode).toBe(200);
  });
});
