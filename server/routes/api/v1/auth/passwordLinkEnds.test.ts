/**
 * No password link outlives a change of the person's password or standing
 * (#31 items 4 and 5), with the links read from mails at a real SMTP server:
 * an outstanding reset link and invitation both end at the person's own
 * password change, an administrator setting the password, "sign out
 * everywhere", and a deactivation followed by a reactivation; a link is bound
 * to the password hash it was issued against, so a password changed by any
 * path ends it; and a reset the person (or anyone) asks for leaves an
 * invitation working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { waitFor } from '../../../../../test/helpers/chatChannel.js';
import { htmlLinks, startSmtp, type ReceivedMail, type TestSmtp } from '../../../../../test/helpers/smtp.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { hashPassword } from '../../../../domain/auth/passwords.js';

describe('password links end with every password change', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let address = 0;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  // Each request from its own address: forgot-password is rate-limited per address.
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown, token?: string) =>
    t.app.inject({
      method,
      url,
      payload: payload as Record<string, unknown>,
      headers: token ? bearer(token) : {},
      remoteAddress: `10.9.${Math.floor(++address / 250)}.${address % 250}`,
    });
  const tokenOf = (mail: ReceivedMail): string => {
    const link = htmlLinks(mail).find((l) => l.includes('/set-password?token='));
    if (!link) throw new Error('no link in the mail');
    return new URL(link).searchParams.get('token') as string;
  };
  const linkTo = async (to: string, subject: RegExp, after: number): Promise<string> =>
    tokenOf(await waitFor(() => smtp.mails.slice(after).find((m) => m.envelope.to.includes(to) && subject.test(m.parsed.subject ?? '')), 20_000));
  const opens = async (token: string): Promise<number> => (await inject('GET', `/api/v1/auth/password-link?token=${token}`)).statusCode;

  /** An agent with a password, an invitation (sent by the admin) and then a reset link (asked for) both outstanding. */
  async function agentWithLinks(email: string): Promise<{ id: number; token: string; invite: string; reset: string }> {
    const agent = await addAgent(t, { email });
    let before = smtp.mails.length;
    expect((await inject('POST', `/api/v1/agents/${agent.id}/invitation`, undefined, t.adminToken)).statusCode).toBe(202);
    const invite = await linkTo(email, /invited/, before);
    before = smtp.mails.length;
    expect((await inject('POST', '/api/v1/auth/forgot-password', { email })).statusCode).toBe(202);
    const reset = await linkTo(email, /Reset your Parley password/, before);
    expect(await opens(invite)).toBe(200);
    expect(await opens(reset)).toBe(200);
    return { ...agent, invite, reset };
  }

  const expectDead = async (...tokens: string[]): Promise<void> => {
    for (const token of tokens) {
      const res = await inject('GET', `/api/v1/auth/password-link?token=${token}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('link_invalid');
      expect((await inject('POST', '/api/v1/auth/set-password', { token, password: 'taken-over-1' })).statusCode).toBe(404);
    }
  };

  it('a reset request leaves an invitation working; using either link ends the other', async () => {
    const a = await agentWithLinks('ends-ask@example.com');
    expect((await inject('POST', '/api/v1/auth/set-password', { token: a.reset, password: 'chosen-password-1' })).statusCode).toBe(204);
    await expectDead(a.invite);
  });

  it('the person’s own password change ends them', async () => {
    const a = await agentWithLinks('ends-own@example.com');
    const res = await inject('PUT', '/api/v1/me/password', { current_password: 'agent-password-1', new_password: 'own-new-password-1' }, a.token);
    expect(res.statusCode).toBe(204);
    await expectDead(a.invite, a.reset);
  });

  it('an administrator setting the password ends them', async () => {
    const a = await agentWithLinks('ends-admin@example.com');
    expect((await inject('PATCH', `/api/v1/agents/${a.id}`, { password: 'admin-set-password-1' }, t.adminToken)).statusCode).toBe(200);
    await expectDead(a.invite, a.reset);
  });

  it('signing out everywhere ends them', async () => {
    const a = await agentWithLinks('ends-all@example.com');
    expect((await inject('POST', '/api/v1/auth/logout-all', undefined, a.token)).statusCode).toBe(204);
    await expectDead(a.invite, a.reset);
  });

  it('a deactivation followed by a reactivation ends them', async () => {
    const a = await agentWithLinks('ends-off@example.com');
    expect((await inject('PATCH', `/api/v1/agents/${a.id}`, { active: false }, t.adminToken)).statusCode).toBe(200);
    expect((await inject('PATCH', `/api/v1/agents/${a.id}`, { active: true }, t.adminToken)).statusCode).toBe(200);
    await expectDead(a.invite, a.reset);
  });

  it('a link is bound to the password it was issued against: a password changed by any path ends it', async () => {
    const a = await agentWithLinks('ends-bound@example.com');
    // No route at all: only the stored hash changes.
    await t.app.ctx.db
      .updateTable('agents')
      .set({ password_hash: await hashPassword('elsewhere-password-1') })
      .where('id', '=', a.id)
      .execute();
    await expectDead(a.invite, a.reset);
  });
});
