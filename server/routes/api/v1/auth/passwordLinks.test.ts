/**
 * Invitations and password resets end to end, with the mails read at a real
 * SMTP server: an invited agent chooses its own password through the link in
 * the mail (single use, 72 h), "forgot password" answers the same whether or
 * not the address exists and mails a 1-hour link, an admin forcing a reset
 * ends the agent's password and sessions; used, replaced and expired links
 * answer link_invalid (404) and link_expired (410).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { waitFor } from '../../../../../test/helpers/chatChannel.js';
import { htmlLinks, startSmtp, type ReceivedMail, type TestSmtp } from '../../../../../test/helpers/smtp.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

const HOUR = 3600 * 1000;

describe('password links', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let offset = 0;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url }, clock: () => Date.now() + offset });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, token?: string) =>
    t.app.inject({ method, url, payload: payload as Record<string, unknown>, headers: token ? bearer(token) : {} });
  const mailTo = (to: string, subject: RegExp, after = 0): Promise<ReceivedMail> =>
    waitFor(() => smtp.mails.slice(after).find((m) => m.envelope.to.includes(to) && subject.test(m.parsed.subject ?? '')), 20_000);
  const tokenOf = (mail: ReceivedMail): string => {
    const link = htmlLinks(mail).find((l) => l.includes('/set-password?token='));
    if (!link) throw new Error('no link in the mail');
    expect(mail.parsed.text).toContain(link);
    return new URL(link).searchParams.get('token') as string;
  };
  const canLogin = async (email: string, password: string) => (await inject('POST', '/api/v1/auth/login', { email, password })).statusCode === 200;

  it('an invited agent chooses its own password through the mailed link, once', async () => {
    const res = await inject('POST', '/api/v1/agents', { name: 'Ines <new>', email: 'ines@example.com', role: 'agent' }, t.adminToken);
    expect(res.statusCode).toBe(201);
    const mail = await mailTo('ines@example.com', /invited/);
    const account = await t.app.ctx.db.selectFrom('accounts').select('name').executeTakeFirstOrThrow();
    expect(mail.parsed.subject).toBe(`You are invited to answer chats for ${account.name || 'Parley'}`);
    expect(mail.parsed.text).toContain('Hello Ines <new>,');
    expect(mail.parsed.html).toContain('Hello Ines &lt;new&gt;,');
    expect(mail.parsed.text).not.toContain('notification');
    const token = tokenOf(mail);

    const link = await inject('GET', `/api/v1/auth/password-link?token=${token}`);
    expect(link.json()).toEqual({ kind: 'invite', name: 'Ines <new>', email: 'ines@example.com', expires_at: expect.any(Number) });
    expect(link.json<{ expires_at: number }>().expires_at - Date.now()).toBeGreaterThan(71 * HOUR);

    const short = await inject('POST', '/api/v1/auth/set-password', { token, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect((await inject('POST', '/api/v1/auth/set-password', { token, password: 'ines-password-1' })).statusCode).toBe(204);
    expect(await canLogin('ines@example.com', 'ines-password-1')).toBe(true);

    const reused = await inject('POST', '/api/v1/auth/set-password', { token, password: 'another-password' });
    expect(reused.statusCode).toBe(404);
    expect(reused.json().error.code).toBe('link_invalid');
    expect((await inject('GET', `/api/v1/auth/password-link?token=${token}`)).json().error.code).toBe('link_invalid');
    expect(await canLogin('ines@example.com', 'another-password')).toBe(false);
  });

  it('an invitation link works for 72 hours, then answers link_expired', async () => {
    await inject('POST', '/api/v1/agents', { name: 'Oli', email: 'oli@example.com', role: 'agent' }, t.adminToken);
    const mail = await mailTo('oli@example.com', /invited/);
    const account = (await t.app.ctx.db.selectFrom('accounts').select('name').executeTakeFirstOrThrow()).name;
    expect(mail.parsed.text).toContain(`Sent by Parley for ${account || 'Parley'}.`);
    const token = tokenOf(mail);
    offset = 72 * HOUR - 60_000;
    try {
      expect((await inject('GET', `/api/v1/auth/password-link?token=${token}`)).statusCode).toBe(200);
      offset = 72 * HOUR + 1000;
      const expired = await inject('POST', '/api/v1/auth/set-password', { token, password: 'oli-password-1' });
      expect(expired.statusCode).toBe(410);
      expect(expired.json().error.code).toBe('link_expired');
    } finally {
      offset = 0;
    }
    expect(await canLogin('oli@example.com', 'oli-password-1')).toBe(false);
  });

  it('a resent invitation replaces the earlier link; an unknown link is link_invalid', async () => {
    const { id } = (await inject('POST', '/api/v1/agents', { name: 'Jo', email: 'jo@example.com', role: 'agent' }, t.adminToken)).json<{ id: number }>();
    const first = tokenOf(await mailTo('jo@example.com', /invited/));
    const before = smtp.mails.length;
    const resent = await inject('POST', `/api/v1/agents/${id}/invitation`, undefined, t.adminToken);
    expect(resent.statusCode).toBe(202);
    expect(resent.json()).toEqual({ sent_to: 'jo@example.com', expires_at: expect.any(Number) });
    const second = tokenOf(await mailTo('jo@example.com', /invited/, before));
    expect(second).not.toBe(first);
    expect((await inject('GET', `/api/v1/auth/password-link?token=${first}`)).statusCode).toBe(404);
    expect((await inject('GET', `/api/v1/auth/password-link?token=${second}`)).statusCode).toBe(200);
    expect((await inject('GET', `/api/v1/auth/password-link?token=${'x'.repeat(43)}`)).json().error.code).toBe('link_invalid');
    // Not before signing in: the agent has no password yet.
    expect(await canLogin('jo@example.com', '')).toBe(false);
  });

  it('forgot password: the same answer for any address; a mail only for a real one; the link expires after 1 hour', async () => {
    await addAgent(t, { email: 'kai@example.com' });
    const before = smtp.mails.length;
    const unknown = await inject('POST', '/api/v1/auth/forgot-password', { email: 'nobody@example.com' });
    const known = await inject('POST', '/api/v1/auth/forgot-password', { email: ' KAI@example.com ' });
    expect(unknown.statusCode).toBe(202);
    expect(known.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    const mail = await mailTo('kai@example.com', /Reset your Parley password/, before);
    expect(smtp.mails.slice(before).some((m) => m.envelope.to.includes('nobody@example.com'))).toBe(false);
    expect(mail.parsed.text).toContain('If you did not ask for this');
    const token = tokenOf(mail);
    expect((await inject('GET', `/api/v1/auth/password-link?token=${token}`)).json()).toMatchObject({ kind: 'reset', email: 'kai@example.com' });
    // The old password still works until the link is used.
    expect(await canLogin('kai@example.com', 'agent-password-1')).toBe(true);

    offset = HOUR + 1000;
    try {
      const expired = await inject('POST', '/api/v1/auth/set-password', { token, password: 'kai-new-password' });
      expect(expired.statusCode).toBe(410);
      expect(expired.json().error.code).toBe('link_expired');
      expect((await inject('GET', `/api/v1/auth/password-link?token=${token}`)).statusCode).toBe(410);
    } finally {
      offset = 0;
    }
    expect(await canLogin('kai@example.com', 'kai-new-password')).toBe(false);
  });

  it('forgot password sends at most 3 mails an hour per address, answering the same', async () => {
    await addAgent(t, { email: 'lee@example.com' });
    const before = smtp.mails.length;
    for (let i = 0; i < 5; i++) expect((await inject('POST', '/api/v1/auth/forgot-password', { email: 'lee@example.com' })).statusCode).toBe(202);
    // Written once the answers are out. Each new reset link replaces the one before, so a mail whose link was
    // replaced before it went out is not sent (its link would not work): count the mails written, not received.
    const written = () => t.app.ctx.db.selectFrom('deliveries').select('id').where('url', '=', 'mailto:lee@example.com').execute();
    await waitFor(async () => (await written()).length >= 3);
    await waitFor(() => smtp.mails.slice(before).some((m) => m.envelope.to.includes('lee@example.com')));
    await new Promise((r) => setTimeout(r, 500));
    expect(await written()).toHaveLength(3);
  });

  it('an admin forcing a reset ends the password and the sessions; the mailed link sets a new one', async () => {
    const agent = await addAgent(t, { email: 'max@example.com' });
    const forbidden = await inject('POST', `/api/v1/agents/${agent.id}/password-reset`, undefined, agent.token);
    expect(forbidden.statusCode).toBe(403);
    const before = smtp.mails.length;
    const res = await inject('POST', `/api/v1/agents/${agent.id}/password-reset`, undefined, t.adminToken);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ sent_to: 'max@example.com' });
    expect((await inject('GET', '/api/v1/me', undefined, agent.token)).statusCode).toBe(401);
    expect(await canLogin('max@example.com', 'agent-password-1')).toBe(false);
    const mail = await mailTo('max@example.com', /Reset your Parley password/, before);
    expect(mail.parsed.text).toContain('Your old password no longer works.');
    expect((await inject('POST', '/api/v1/auth/set-password', { token: tokenOf(mail), password: 'max-new-password' })).statusCode).toBe(204);
    expect(await canLogin('max@example.com', 'max-new-password')).toBe(true);
  });

  it('refuses other accounts’ agents and the admin’s own forced reset', async () => {
    expect((await inject('POST', '/api/v1/agents/999999/invitation', undefined, t.adminToken)).statusCode).toBe(404);
    expect((await inject('POST', '/api/v1/agents/999999/password-reset', undefined, t.adminToken)).statusCode).toBe(404);
    const me = (await inject('GET', '/api/v1/me', undefined, t.adminToken)).json<{ id: number }>();
    expect((await inject('POST', `/api/v1/agents/${me.id}/password-reset`, undefined, t.adminToken)).statusCode).toBe(409);
  });
});
