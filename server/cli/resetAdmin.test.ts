/**
 * reset-admin: the printed link sets a new password once; a deactivated
 * administrator is made active again; unknown people, agents and bad
 * addresses are refused with a sentence, changing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { resetAdmin, ResetRefused } from './resetAdmin.js';

describe('npm run reset-admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('prints a one-hour link that sets a new password once, and reactivates a deactivated administrator', async () => {
    const second = await addAgent(t, { email: 'boss2@example.com', role: 'admin' });
    const off = await t.app.inject({ method: 'PATCH', url: `/api/v1/agents/${second.id}`, headers: bearer(t.adminToken), payload: { active: false } });
    expect(off.json().active).toBe(false);
    const done = await resetAdmin(t.config, ' Boss2@Example.com ');
    expect(done.reactivated).toBe(true);
    expect(done.url).toMatch(/^http:\/\/parley\.test\/set-password\?token=/);
    expect(done.expiresAt - Date.now()).toBeGreaterThan(59 * 60_000);
    const token = new URL(done.url).searchParams.get('token');
    const set = () => t.app.inject({ method: 'POST', url: '/api/v1/auth/set-password', payload: { token, password: 'brand-new-pass-1' } });
    expect((await set()).statusCode).toBe(204);
    expect((await set()).statusCode).toBe(404);
    expect(await t.login('boss2@example.com', 'brand-new-pass-1')).toEqual(expect.any(String));
  });

  it('refuses unknown people, agents and bad addresses', async () => {
    await addAgent(t, { email: 'plain@example.com', role: 'agent' });
    await expect(resetAdmin(t.config, 'nobody@example.com')).rejects.toThrow(/No one signs in with nobody@example.com/);
    await expect(resetAdmin(t.config, 'plain@example.com')).rejects.toThrow(/is not an administrator/);
    await expect(resetAdmin(t.config, 'not an address')).rejects.toBeInstanceOf(ResetRefused);
    const links = await t.app.ctx.db.selectFrom('password_links').select('agent_id').execute();
    expect(links).toHaveLength(1);
  });
});
