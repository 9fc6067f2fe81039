/**
 * The identity of a business and its people (#36 items 1 and 2): an admin
 * changes any agent's e-mail (PATCH /agents/:id {email}); an agent changes
 * its own (POST /me/email), confirmed by a link mailed to the new address
 * while mail is sent, at once while it is kept; the first sign-in with the
 * generated password asks for the owner's e-mail, the company's name and a
 * new password (POST /me/first-run); the company's name (account_name in
 * GET/PUT /settings) is what mails, the widget and the app's header show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../../app.js';
import { loadConfig } from '../../../../config/config.js';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { waitFor } from '../../../../../test/helpers/chatChannel.js';
import { htmlLinks, startSmtp, type ReceivedMail, type TestSmtp } from '../../../../../test/helpers/smtp.js';
import { ADMIN_EMAIL, bearer, createTestApp, freshStore, type TestApp, type TestStore } from '../../../../../test/helpers/testApp.js';

const HOUR = 3600 * 1000;

describe('e-mail and company name, mail kept (no SMTP_URL)', () => {
  let t: TestApp;
  let adminId: number;
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, token: string | null, payload?: unknown) =>
    t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload: payload as Record<string, unknown> });

  beforeAll(async () => {
    t = await createTestApp();
    adminId = (await inject('GET', '/api/v1/me', t.adminToken)).json().id;
  });
  afterAll(async () => {
    await t.close();
  });

  it("an admin changes an agent's e-mail: lower-cased, signs in with it, the old one no longer", async () => {
    const ann = await addAgent(t, { email: 'ann@example.com', password: 'ann-password-1' });
    const res = await inject('PATCH', `/api/v1/agents/${ann.id}`, t.adminToken, { email: '  Ann.Real@Example.COM ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe('ann.real@example.com');
    expect(await t.login('ann.real@example.com', 'ann-password-1')).toEqual(expect.any(String));
    expect((await inject('POST', '/api/v1/auth/login', null, { email: 'ann@example.com', password: 'ann-password-1' })).statusCode).toBe(401);
  });

  it('the first administrator changes its own address the same way', async () => {
    const res = await inject('PATCH', `/api/v1/agents/${adminId}`, t.adminToken, { email: 'owner@acme.example' });
    expect(res.statusCode).toBe(200);
    expect((await inject('GET', '/api/v1/me', t.adminToken)).json().email).toBe('owner@acme.example');
    await inject('PATCH', `/api/v1/agents/${adminId}`, t.adminToken, { email: ADMIN_EMAIL });
  });

  it('refuses an address another agent has (any case) with 409 email_taken, a malformed one with 400, and changes nothing', async () => {
    const bo = await addAgent(t, { email: 'bo@example.com' });
    const taken = await inject('PATCH', `/api/v1/agents/${bo.id}`, t.adminToken, { email: ADMIN_EMAIL.toUpperCase() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('email_taken');
    expect(taken.json().error.message).toContain(ADMIN_EMAIL);
    const bad = await inject('PATCH', `/api/v1/agents/${bo.id}`, t.adminToken, { email: 'not an address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^email must be an e-mail address/);
    const long = await inject('PATCH', `/api/v1/agents/${bo.id}`, t.adminToken, { email: `${'x'.repeat(330)}@example.com` });
    expect(long.statusCode).toBe(400);
    expect((await inject('GET', `/api/v1/agents/${bo.id}`, t.adminToken)).json().email).toBe('bo@example.com');
  });

  it("an agent may not change another agent's e-mail (403), nor its own through the admin route", async () => {
    const cy = await addAgent(t, { email: 'cy@example.com' });
    const res = await inject('PATCH', `/api/v1/agents/${cy.id}`, cy.token, { email: 'cy2@example.com' });
    expect(res.statusCode).toBe(403);
  });

  it("a new address ends the agent's unused invitation (it went to the old address)", async () => {
    const inv = await inject('POST', '/api/v1/agents', t.adminToken, { name: 'Dee', email: 'dee@wrong.example', role: 'agent' });
    const id = inv.json().id as number;
    await inject('PATCH', `/api/v1/agents/${id}`, t.adminToken, { email: 'dee@right.example' });
    const links = await t.app.ctx.db.selectFrom('password_links').select('used_at').where('agent_id', '=', id).execute();
    expect(links.length).toBeGreaterThan(0);
    expect(links.every((l) => l.used_at !== null)).toBe(true);
  });

  it('without mail sent, an agent changes its own address at once (POST /me/email), and GET /me/email says so', async () => {
    const eve = await addAgent(t, { email: 'eve@example.com', password: 'eve-password-1' });
    const before = await inject('GET', '/api/v1/me/email', eve.token);
    expect(before.json()).toEqual({ email: 'eve@example.com', pending_email: null, expires_at: null, mail_sent: false });
    const res = await inject('POST', '/api/v1/me/email', eve.token, { email: 'Eve@Home.Example' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: 'eve@home.example', pending_email: null, expires_at: null, mail_sent: false });
    expect(await t.login('eve@home.example', 'eve-password-1')).toEqual(expect.any(String));
    const taken = await inject('POST', '/api/v1/me/email', eve.token, { email: ADMIN_EMAIL });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('email_taken');
    expect((await inject('POST', '/api/v1/me/email', eve.token, { email: 'nope' })).statusCode).toBe(400);
  });

  it('account_name: "" at first, set and read through /settings, trimmed, at most 100 characters', async () => {
    expect((await inject('GET', '/api/v1/settings', t.adminToken)).json().account_name).toBe('');
    const set = await inject('PUT', '/api/v1/settings', t.adminToken, { account_name: '  Acme Bikes ' });
    expect(set.statusCode).toBe(200);
    expect(set.json().account_name).toBe('Acme Bikes');
    expect((await inject('GET', '/api/v1/settings', t.adminToken)).json().account_name).toBe('Acme Bikes');
    const long = await inject('PUT', '/api/v1/settings', t.adminToken, { account_name: 'x'.repeat(101) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toMatch(/account_name must have at most 100 characters/);
    const twoLines = await inject('PUT', '/api/v1/settings', t.adminToken, { account_name: 'Acme\nBikes' });
    expect(twoLines.statusCode).toBe(400);
    expect((await inject('GET', '/api/v1/settings', t.adminToken)).json().account_name).toBe('Acme Bikes');
  });

  it('every agent reads the name for the header (GET /account); "Parley" stands in only while it is empty', async () => {
    const fay = await addAgent(t, { email: 'fay@example.com' });
    await inject('PUT', '/api/v1/settings', t.adminToken, { account_name: 'Acme Bikes' });
    expect((await inject('GET', '/api/v1/account', fay.token)).json()).toEqual({ name: 'Acme Bikes', shown_name: 'Acme Bikes' });
    expect((await inject('PUT', '/api/v1/settings', t.adminToken, { account_name: '' })).json().account_name).toBe('');
    expect((await inject('GET', '/api/v1/account', fay.token)).json()).toEqual({ name: '', shown_name: 'Parley' });
    expect((await inject('PUT', '/api/v1/settings', fay.token, { account_name: 'Mine' })).statusCode).toBe(403);
    await inject('PUT', '/api/v1/settings', t.adminToken, { account_name: 'Acme Bikes' });
  });

  it('mails say the company name: the subject, "Sent by Parley for …" and the From name', async () => {
    await inject('PUT', '/api/v1/settings', t.adminToken, { account_name: 'Acme Bikes' });
    await inject('POST', '/api/v1/agents', t.adminToken, { name: 'Gil', email: 'gil@example.com', role: 'agent' });
    const mails = (await inject('GET', '/api/v1/mails', t.adminToken)).json<Array<{ to: string; subject: string; text: string; status: string }>>();
    const mail = mails.find((m) => m.to === 'gil@example.com');
    expect(mail?.status).toBe('kept');
    expect(mail?.subject).toBe('You are invited to answer chats for Acme Bikes');
    expect(mail?.text).toContain('Sent by Parley for Acme Bikes.');
    const row = await t.app.ctx.db.selectFrom('deliveries').select('body').where('url', '=', 'mailto:gil@example.com').executeTakeFirstOrThrow();
    expect(JSON.parse(row.body).from_name).toBe('Acme Bikes');
  });
});

describe('an invitation kept without SMTP: its link to copy from the Mail page (#36 item 4)', () => {
  let t: TestApp;
  const inject = (method: 'GET' | 'POST', url: string, token: string | null, payload?: unknown) =>
    t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload: payload as Record<string, unknown> });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('makes the link of a kept invitation to copy; a newer copy ends the earlier one; it sets the password once', async () => {
    await inject('POST', '/api/v1/agents', t.adminToken, { name: 'Kim', email: 'kim@example.com', role: 'agent' });
    const mail = (await inject('GET', '/api/v1/mails', t.adminToken))
      .json<Array<{ id: number; to: string; status: string; text: string }>>()
      .find((m) => m.to === 'kim@example.com');
    expect(mail?.status).toBe('kept');
    const first = await inject('POST', `/api/v1/mails/${mail?.id}/link`, t.adminToken);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      url: expect.stringMatching(/^http:\/\/parley\.test\/set-password\?token=/),
      expires_at: expect.any(Number),
      to: 'kim@example.com',
    });
    const tokenOf = (url: string) => new URL(url).searchParams.get('token') as string;
    const second = await inject('POST', `/api/v1/mails/${mail?.id}/link`, t.adminToken);
    const oldToken = tokenOf(first.json().url);
    const newToken = tokenOf(second.json().url);
    expect(newToken).not.toBe(oldToken);
    // Never stored: not in the mail, and the first copy no longer opens.
    expect(JSON.stringify((await inject('GET', '/api/v1/mails', t.adminToken)).json())).not.toContain(newToken);
    expect((await inject('GET', `/api/v1/auth/password-link?token=${oldToken}`, null)).json().error.code).toBe('link_invalid');
    expect((await inject('GET', `/api/v1/auth/password-link?token=${newToken}`, null)).json()).toMatchObject({ kind: 'invite', email: 'kim@example.com' });
    expect((await inject('POST', '/api/v1/auth/set-password', null, { token: newToken, password: 'kim-password-1' })).statusCode).toBe(204);
    expect(await t.login('kim@example.com', 'kim-password-1')).toEqual(expect.any(String));
    const used = await inject('POST', `/api/v1/mails/${mail?.id}/link`, t.adminToken);
    expect(used.statusCode).toBe(404);
    expect(used.json().error.code).toBe('link_invalid');
  });

  it('answers 404 for an unknown mail, 403 to an agent', async () => {
    const lou = await addAgent(t, { email: 'lou@example.com' });
    await inject('POST', '/api/v1/agents', t.adminToken, { name: 'Max', email: 'max@example.com', role: 'agent' });
    const mail = (await inject('GET', '/api/v1/mails', t.adminToken)).json<Array<{ id: number; to: string }>>().find((m) => m.to === 'max@example.com');
    expect((await inject('POST', `/api/v1/mails/${mail?.id}/link`, lou.token)).statusCode).toBe(403);
    expect((await inject('POST', '/api/v1/mails/999999/link', t.adminToken)).statusCode).toBe(404);
  });
});

describe('e-mail confirmed by a link (SMTP_URL set)', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let offset = 0;
  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | null, payload?: unknown) =>
    t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload: payload as Record<string, unknown> });
  const mailTo = (to: string, subject: RegExp): Promise<ReceivedMail> =>
    waitFor(() => smtp.mails.find((m) => m.envelope.to.includes(to) && subject.test(m.parsed.subject ?? '')), 20_000);
  const tokenOf = (mail: ReceivedMail): string => {
    const link = htmlLinks(mail).find((l) => l.includes('/confirm-email?token='));
    if (!link) throw new Error('no link in the mail');
    expect(mail.parsed.text).toContain(link);
    return new URL(link).searchParams.get('token') as string;
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Parley <parley@acme.example>' }, clock: () => Date.now() + offset });
    await inject('PUT', '/api/v1/settings', t.adminToken, { account_name: 'Acme Bikes' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('the address changes only when the link mailed to the new address is opened, once', async () => {
    const hal = await addAgent(t, { email: 'hal@example.com', password: 'hal-password-1', name: 'Hal' });
    const res = await inject('POST', '/api/v1/me/email', hal.token, { email: 'Hal@New.Example' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: 'hal@example.com', pending_email: 'hal@new.example', expires_at: expect.any(Number), mail_sent: true });
    expect(res.json().expires_at - Date.now()).toBeGreaterThan(23 * HOUR);
    expect((await inject('GET', '/api/v1/me', hal.token)).json().email).toBe('hal@example.com');

    const mail = await mailTo('hal@new.example', /Confirm your new e-mail address for Acme Bikes/);
    expect(mail.parsed.from?.value[0]).toEqual({ name: 'Acme Bikes', address: 'parley@acme.example' });
    expect(mail.parsed.text).toContain('Sent by Parley for Acme Bikes.');
    const token = tokenOf(mail);
    // The stored mail (the Mail page) never holds the working link; the database only its digest.
    const row = await t.app.ctx.db.selectFrom('deliveries').select('body').where('url', '=', 'mailto:hal@new.example').executeTakeFirstOrThrow();
    expect(row.body).not.toContain(token);

    const done = await inject('POST', '/api/v1/auth/email-confirmation', null, { token });
    expect(done.statusCode).toBe(200);
    expect(done.json().email).toBe('hal@new.example');
    expect((await inject('GET', '/api/v1/me/email', hal.token)).json()).toMatchObject({ email: 'hal@new.example', pending_email: null });
    expect(await t.login('hal@new.example', 'hal-password-1')).toEqual(expect.any(String));

    const again = await inject('POST', '/api/v1/auth/email-confirmation', null, { token });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('link_invalid');
    expect((await inject('POST', '/api/v1/auth/email-confirmation', null, { token: 'x'.repeat(43) })).json().error.code).toBe('link_invalid');
  });

  it('a link past its 24 hours answers 410 link_expired; an address taken meanwhile 409 email_taken', async () => {
    const ivy = await addAgent(t, { email: 'ivy@example.com' });
    await inject('POST', '/api/v1/me/email', ivy.token, { email: 'ivy@late.example' });
    const late = tokenOf(await mailTo('ivy@late.example', /Confirm/));
    offset = 25 * HOUR;
    try {
      const expired = await inject('POST', '/api/v1/auth/email-confirmation', null, { token: late });
      expect(expired.statusCode).toBe(410);
      expect(expired.json().error.code).toBe('link_expired');
    } finally {
      offset = 0;
    }

    const jo = await addAgent(t, { email: 'jo@example.com' });
    await inject('POST', '/api/v1/me/email', jo.token, { email: 'shared@example.com' });
    const token = tokenOf(await mailTo('shared@example.com', /Confirm/));
    await addAgent(t, { email: 'shared@example.com' });
    const taken = await inject('POST', '/api/v1/auth/email-confirmation', null, { token });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('email_taken');
    expect((await inject('GET', '/api/v1/me', jo.token)).json().email).toBe('jo@example.com');
  });
});

describe('the first sign-in with the generated password', () => {
  let store: TestStore;
  let app: App;
  let generated: string;
  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | null, payload?: unknown) =>
    app.inject({ method, url, headers: token ? bearer(token) : {}, payload: payload as Record<string, unknown> });
  const signIn = async (password: string) => {
    const res = await inject('POST', '/api/v1/auth/login', null, { email: 'admin@localhost.localdomain', password });
    return res.json<{ token: string; must_change_password: boolean }>();
  };

  beforeAll(async () => {
    store = freshStore();
    const config = loadConfig({ PUBLIC_URL: 'http://parley.test', LOG_LEVEL: 'silent', OUTBOUND_ALLOW_PRIVATE: '1', ...store.env });
    app = await buildApp({ config, bootstrap: 'later', logger: false });
    const first = await app.createFirstAccount();
    generated = first.generatedPassword as string;
    expect(generated).toEqual(expect.any(String));
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it('signs in (again after a reload) but can do nothing before the first-run form; GET /me/first-run says what it asks', async () => {
    const first = await signIn(generated);
    expect(first.must_change_password).toBe(true);
    expect((await signIn(generated)).must_change_password).toBe(true);
    expect((await inject('GET', '/api/v1/chats', first.token)).json().error.code).toBe('password_change_required');
    expect((await inject('GET', '/api/v1/me/first-run', first.token)).json()).toEqual({
      required: true,
      email: 'admin@localhost.localdomain',
      account_name: '',
    });
  });

  it('refuses a wrong generated password, an empty company name, a short password, a bad address, and sets nothing', async () => {
    const { token } = await signIn(generated);
    const base = { current_password: generated, email: 'owner@acme.example', account_name: 'Acme Bikes', new_password: 'owner-password-1' };
    const wrong = await inject('POST', '/api/v1/me/first-run', token, { ...base, current_password: 'not-it-at-all' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.code).toBe('wrong_password');
    expect((await inject('POST', '/api/v1/me/first-run', token, { ...base, account_name: '  ' })).json().error.message).toMatch(
      /account_name must not be empty/,
    );
    expect((await inject('POST', '/api/v1/me/first-run', token, { ...base, new_password: 'short' })).statusCode).toBe(400);
    expect((await inject('POST', '/api/v1/me/first-run', token, { ...base, email: 'owner' })).statusCode).toBe(400);
    expect((await inject('GET', '/api/v1/me/first-run', token)).json()).toMatchObject({
      required: true,
      email: 'admin@localhost.localdomain',
      account_name: '',
    });
  });

  it("sets the owner's e-mail, the company name and the password together; the other sessions end", async () => {
    const other = await signIn(generated);
    const { token } = await signIn(generated);
    const res = await inject('POST', '/api/v1/me/first-run', token, {
      current_password: generated,
      email: 'Owner@Acme.Example',
      account_name: 'Acme Bikes',
      new_password: 'owner-password-1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe('owner@acme.example');
    expect((await inject('GET', '/api/v1/settings', token)).json().account_name).toBe('Acme Bikes');
    expect((await inject('GET', '/api/v1/me/first-run', token)).json()).toEqual({ required: false, email: 'owner@acme.example', account_name: 'Acme Bikes' });
    expect((await inject('GET', '/api/v1/me', other.token)).statusCode).toBe(401);
    expect((await inject('POST', '/api/v1/auth/login', null, { email: 'admin@localhost.localdomain', password: generated })).statusCode).toBe(401);
    const again = await inject('POST', '/api/v1/auth/login', null, { email: 'owner@acme.example', password: 'owner-password-1' });
    expect(again.json().must_change_password).toBe(false);
    const twice = await inject('POST', '/api/v1/me/first-run', token, {
      current_password: 'owner-password-1',
      email: 'x@acme.example',
      account_name: 'X',
      new_password: 'another-password',
    });
    expect(twice.statusCode).toBe(409);
  });
});
