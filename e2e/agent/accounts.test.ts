/**
 * The account lifecycle in a real browser, on the no-SMTP default (mails are
 * kept and shown on the admin's Mail page): the Mail page's empty state; an
 * admin invites an agent from the Agents page, the invitation appears on the
 * Mail page, the agent opens the link, chooses a password and signs in; the
 * used link then says it cannot be used; "Forgot password?" sends a reset
 * link, and an expired link says so; the notification addresses are saved
 * on the Settings page. An admin edits an agent (name, role, departments),
 * resends an invitation and forces a password reset; the Mail page shows the
 * notification mails (offline message, callback request, transcript) kept.
 * On the Profile page a person changes their name, photo link and password,
 * and their other session is signed out.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueLinkToken, LINK_SLOT, linkUrl } from '../../server/domain/auth/passwordLinks.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { addAgent } from '../../test/helpers/accounts.js';
import { ADMIN_EMAIL, bearer } from '../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall } from '../../test/helpers/widget.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, openAsAdmin, reportFailure, signIn, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: invitations, password links and the Mail page', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  let page: Page;

  /**
   * The set-password link of the newest kept mail to `to`: the mail, read through the Mail API, holds no link
   * (links are never stored), so its token is made as the deliverer makes it when it sends one.
   */
  const linkMailedTo = async (to: string, type: string): Promise<string> => {
    const mail = await waitFor(async () => {
      const res = await run.t.app.inject({ method: 'GET', url: '/api/v1/mails', headers: bearer(run.t.adminToken) });
      return res.json<Array<{ id: number; to: string; type: string; text: string; status: string }>>().find((m) => m.to === to && m.type === type);
    });
    expect(mail.status).toBe('kept');
    expect(mail.text).toContain(LINK_SLOT);
    const row = await run.t.app.ctx.db.selectFrom('deliveries').select('body').where('id', '=', mail.id).executeTakeFirstOrThrow();
    const linkId = (JSON.parse(row.body) as { password_link_id: number }).password_link_id;
    const token = await issueLinkToken(run.t.app.ctx.db, linkId, Date.now());
    if (!token) throw new Error(`the link of mail ${mail.id} has ended`);
    // The mail is built from PUBLIC_URL; the browser reaches this test's listener.
    const link = new URL(linkUrl(run.t.config.publicUrl, token));
    return `${run.base}${link.pathname}${link.search}`;
  };

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    ({ browser, page } = await openAsAdmin(run, browserLog, 900));
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('shows the Mail page empty before anything was mailed, saying mails are kept (no SMTP_URL)', async () => {
    await page.goto(`${run.base}/admin/mail`);
    await page.getByRole('heading', { name: 'Mail' }).waitFor();
    await page.getByText('No mail yet.').waitFor();
    await page.getByText('Mail is not being sent').waitFor();
    await screenshot(page, 'mail-empty');
  });

  it('invites an agent, who sets a password through the link and signs in; the used link is refused', async () => {
    await page.goto(`${run.base}/admin/agents`);
    const form = page.getByRole('form', { name: 'Add an agent' });
    await form.getByLabel('Name').fill('Ines Invited');
    await form.getByLabel('E-mail').fill('ines@example.com');
    await form.getByRole('button', { name: 'Invite agent' }).click();
    // No SMTP_URL here: the page says the invitation is only kept on the Mail page (#36 item 4).
    await page.getByRole('status').filter({ hasText: 'the invitation to ines@example.com is only kept on the Mail page' }).waitFor();
    await screenshot(page, 'agents-invited');

    await page.getByRole('link', { name: 'Mail', exact: true }).click();
    const card = page.locator('.mails li').filter({ hasText: 'You are invited to answer chats' });
    await card.waitFor();
    expect(await card.locator('.pill').textContent()).toBe('kept');
    await page.getByText('Mail is not being sent').waitFor();
    await card.getByText('Show the mail').click();
    await card.locator('pre').getByText('Choose my password').waitFor();
    await screenshot(page, 'mail-kept-invitation');

    const link = await linkMailedTo('ines@example.com', 'invitation');
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const guest = await context.newPage();
    collectBrowserLog(guest, browserLog);
    try {
      await guest.goto(link);
      await guest.getByRole('heading', { name: 'Welcome, Ines Invited' }).waitFor();
      await screenshot(guest, 'set-password-invite');
      await guest.getByLabel('New password').fill('ines-password-1');
      await guest.getByLabel('The same password again').fill('ines-password-2');
      await guest.getByRole('button', { name: 'Set my password' }).click();
      await guest.getByRole('alert').filter({ hasText: 'The two passwords differ' }).waitFor();
      await guest.getByLabel('The same password again').fill('ines-password-1');
      await guest.getByRole('button', { name: 'Set my password' }).click();
      await guest.getByRole('heading', { name: 'Password set' }).waitFor();
      await guest.getByRole('button', { name: 'Sign in' }).click();
      await guest.getByText('Password set for ines@example.com; sign in with it.').waitFor();
      await screenshot(guest, 'sign-in-after-password-set');
      await guest.locator('input[name="email"]').fill('ines@example.com');
      await guest.locator('input[name="password"]').fill('ines-password-1');
      await guest.getByRole('button', { name: 'Sign in' }).click();
      await guest.locator('.conn-live').waitFor({ timeout: 10_000 });

      const reused = await context.newPage();
      await reused.goto(link);
      await reused.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
      await reused.getByText('already used').waitFor();
      await screenshot(reused, 'set-password-reused');
    } finally {
      await context.close();
    }
  });

  it('edits an agent (name, role, departments), resends an invitation and forces a password reset', async () => {
    const api = (method: 'POST' | 'PUT', url: string, payload: object) =>
      run.t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(run.t.adminToken), payload });
    const sales = (await api('POST', '/departments', { name: 'Sales' })).json<{ id: number }>().id;
    await api('POST', '/departments', { name: 'Billing' });
    await page.goto(`${run.base}/admin/agents`);
    await page.getByRole('button', { name: 'Edit Ines Invited' }).click();
    const form = page.getByRole('form', { name: 'Edit Ines Invited' });
    await form.getByLabel('Name').fill('Ines Edited');
    await form.getByLabel('Role').selectOption('admin');
    await form.getByRole('checkbox', { name: 'Sales' }).check();
    await form.getByRole('button', { name: 'Save agent' }).click();
    // The form now carries the new name, the result beside its button.
    const edited = page.getByRole('form', { name: 'Edit Ines Edited' });
    await edited.getByRole('status').filter({ hasText: 'Saved Ines Edited.' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'ines@example.com' });
    await row.getByRole('cell', { name: 'Sales', exact: true }).waitFor();
    expect(await row.getByRole('combobox', { name: 'Role of Ines Edited' }).inputValue()).toBe('admin');
    await screenshot(page, 'agent-edit');
    const saved = (await run.t.app.inject({ method: 'GET', url: '/api/v1/agents', headers: bearer(run.t.adminToken) })).json<
      Array<{ email: string; name: string; role: string; department_ids: number[] }>
    >();
    expect(saved.find((a) => a.email === 'ines@example.com')).toMatchObject({ name: 'Ines Edited', role: 'admin', department_ids: [sales] });
    // Back to an agent, no department.
    await edited.getByLabel('Role').selectOption('agent');
    await edited.getByRole('checkbox', { name: 'Sales' }).uncheck();
    await edited.getByRole('button', { name: 'Save agent' }).click();
    await row.getByRole('cell', { name: 'none', exact: true }).waitFor();
    await edited.getByRole('button', { name: 'Close' }).click();
    expect(await edited.count()).toBe(0);

    await row.getByRole('button', { name: 'Send Ines Edited an invitation' }).click();
    await row.getByRole('status').filter({ hasText: 'the invitation for ines@example.com is kept on the Mail page' }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Force a password reset for Ines Edited' }).click();
    await row.getByRole('status').filter({ hasText: 'the password-reset link for ines@example.com is kept on the Mail page' }).waitFor();
    await linkMailedTo('ines@example.com', 'password_reset');
    const signIn = await run.t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'ines@example.com', password: 'ines-password-1' } });
    expect(signIn.statusCode).toBe(401);
  });

  it('shows the notification mails on the Mail page: offline message, callback request, transcript', async () => {
    const t = run.t;
    const widget = await createWidget(t, { name: 'Shop' });
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      headers: bearer(t.adminToken),
      payload: { callback: { enabled: true, balance_seconds: 600 } },
    });
    const s = await startSession(t, widget.widget_id);
    await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { name: 'Olga <o>', email: 'olga@example.com', message: 'Do you ship to Oslo?' });
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'callback', { phone: '+15550100199' })).json()).toMatchObject({ result: 'ok' });
    await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { client_name: 'Olga <o>', email: 'olga@example.com' });
    await sendText(t, widget.widget_id, s.visitor_token, 'One more question');
    // A transcript goes only to an address the visitor proved: a confirmation link first (docs/SECURITY.md §10a).
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'transcript', {})).json()).toMatchObject({ result: 'confirmation_sent' });
    const kept = (await t.app.inject({ method: 'GET', url: '/api/v1/mails', headers: bearer(t.adminToken) })).json<Array<{ type: string; text: string }>>();
    const confirmLink = /http:\/\/\S+(\/widget\/transcript\/[^\s)]+)/.exec(kept.find((m) => m.type === 'transcript_confirmation')?.text ?? '');
    if (!confirmLink) throw new Error('no confirmation link in the transcript confirmation mail');
    const confirmed = await t.app.inject({
      method: 'POST',
      url: confirmLink[1],
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(confirmed.statusCode).toBe(200);

    await page.goto(`${run.base}/admin/mail`);
    const cards = page.locator('.mails li');
    // One mail per admin: the one to the first admin.
    const offline = cards.filter({ hasText: 'Offline message from Olga <o>' }).filter({ hasText: `to ${ADMIN_EMAIL}` });
    await offline.waitFor();
    await offline.getByText('reply to olga@example.com').waitFor();
    await cards
      .filter({ hasText: 'Callback request: +15550100199' })
      .filter({ hasText: `to ${ADMIN_EMAIL}` })
      .waitFor();
    await cards.filter({ hasText: 'Confirm your e-mail address' }).getByText("Address check for a visitor's transcript · to olga@example.com").waitFor();
    const transcript = cards.filter({ hasText: 'Your conversation with' });
    await transcript.getByText('Transcript for the visitor · to olga@example.com').waitFor();
    await offline.getByText('Show the mail').click();
    await offline.locator('pre').getByText('> Do you ship to Oslo?').waitFor();
    await screenshot(page, 'mail-filled');

    // The callback mail's link opens the Calls page with that call marked.
    const mails = (await t.app.inject({ method: 'GET', url: '/api/v1/mails', headers: bearer(t.adminToken) })).json<Array<{ type: string; text: string }>>();
    const callLink = /http:\/\/\S+\/calls\?call=(\d+)/.exec(mails.find((m) => m.type === 'callback_request')?.text ?? '');
    if (!callLink) throw new Error('no call link in the callback mail');
    await page.goto(`${run.base}/calls?call=${callLink[1]}`);
    const marked = page.locator(`li[data-call-id="${callLink[1]}"]`);
    await marked.getByText('+15550100199').waitFor();
    expect(await marked.getAttribute('aria-current')).toBe('true');
    expect(await page.locator('li.marked').count()).toBe(1);
  });

  it('saves the notification addresses in Settings, the result beside the button', async () => {
    await page.goto(`${run.base}/admin/settings`);
    const form = page.getByRole('form', { name: 'Notification e-mails' });
    await form.getByLabel('Send offline messages and callback requests to').fill('sales@example.com\nnot-an-address');
    await form.getByRole('button', { name: 'Save notification e-mails' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: '"not-an-address" is not an e-mail address; write addresses such as support@example.com, one per line.' })
      .waitFor();
    await form.getByLabel('Send offline messages and callback requests to').fill('Sales@Example.com\ndesk@example.com');
    await form.getByRole('button', { name: 'Save notification e-mails' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved: notifications go to 2 addresses; no missed-chat mail; no archive copy.' }).waitFor();
    await form.getByLabel('Mail a chat nobody accepted after (minutes)').fill('5');
    await form.getByLabel('Archive address').fill('Archive@Example.com');
    await form.getByRole('button', { name: 'Save notification e-mails' }).click();
    await form
      .getByRole('status')
      .filter({ hasText: 'Saved: notifications go to 2 addresses; missed chats after 5 min; archive copies to archive@example.com.' })
      .waitFor();
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-notifications');
    const res = await run.t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(run.t.adminToken) });
    expect(res.json().notifications).toEqual({
      emails: ['sales@example.com', 'desk@example.com'],
      missed_chat_minutes: 5,
      archive_email: 'archive@example.com',
    });
  });

  it('"Forgot password?" mails a reset link; once expired, the link page says so', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const guest = await context.newPage();
    collectBrowserLog(guest, browserLog);
    try {
      await guest.goto(`${run.base}/`);
      await guest.getByRole('link', { name: 'Forgot password?' }).click();
      await guest.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      await guest.getByLabel('E-mail').fill('ines@example.com');
      await guest.getByRole('button', { name: 'Send me a link' }).click();
      await guest.getByRole('status').filter({ hasText: 'If an account uses this address' }).waitFor();
      await screenshot(guest, 'forgot-password-sent');

      const link = await linkMailedTo('ines@example.com', 'password_reset');
      await guest.goto(link);
      await guest.getByRole('heading', { name: 'Choose a new password' }).waitFor();

      // An hour later: the link has expired.
      await run.t.app.ctx.db
        .updateTable('password_links')
        .set({ expires_at: Date.now() - 1000 })
        .where('kind', '=', 'reset')
        .execute();
      await guest.goto(link);
      await guest.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
      await guest.getByText('This link has expired.').waitFor();
      await screenshot(guest, 'set-password-expired');
    } finally {
      await context.close();
    }
  });

  it('Profile: a person changes their name, photo link and password; their other session ends', async () => {
    await addAgent(run.t, { email: 'pat@example.com', name: 'Pat Agent', password: 'pat-password-1' });
    const here = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const there = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    try {
      const me = await here.newPage();
      const other = await there.newPage();
      collectBrowserLog(me, browserLog);
      collectBrowserLog(other, browserLog);
      await signIn(other, run.base, 'pat@example.com', 'pat-password-1');
      await signIn(me, run.base, 'pat@example.com', 'pat-password-1');
      await me.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
      await me.getByRole('heading', { name: 'Your profile' }).waitFor();
      await me.getByText('You sign in as pat@example.com (agent).').waitFor();
      await screenshot(me, 'profile');

      const photo = me.getByRole('form', { name: 'Photo' });
      await photo.getByLabel('Or use a link to an image').fill('ftp://files.example.com/pat.png');
      await photo.getByRole('button', { name: 'Use this link' }).click();
      await photo.getByRole('alert').filter({ hasText: 'Enter a link that starts with https://' }).waitFor();
      await photo.getByLabel('Or use a link to an image').fill('https://images.example.com/pat.png');
      await photo.getByRole('button', { name: 'Use this link' }).click();
      await photo.getByRole('status').filter({ hasText: 'Saved: visitors now see the photo at this link.' }).waitFor();
      expect(await photo.getByRole('img', { name: 'Your photo' }).getAttribute('src')).toBe('https://images.example.com/pat.png');

      const details = me.getByRole('form', { name: 'Name and phone' });
      await details.getByLabel('Name').fill('Pat Renamed');
      await details.getByRole('button', { name: 'Save profile' }).click();
      await details.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      // The header follows at once.
      await me.locator('.header .me').filter({ hasText: 'Pat Renamed' }).waitFor();

      const password = me.getByRole('form', { name: 'Password' });
      await password.getByLabel('Current password').fill('not-my-password');
      await password.getByLabel('New password', { exact: true }).fill('pat-password-2');
      await password.getByLabel('New password again').fill('pat-password-2');
      await password.getByRole('button', { name: 'Change password' }).click();
      await password.getByRole('alert').waitFor();
      expect(await password.getByRole('alert').textContent()).toMatch(/password/i);
      // The other session is still signed in after the refused change.
      expect(await other.locator('.conn-live').count()).toBe(1);
      await password.getByLabel('Current password').fill('pat-password-1');
      await password.getByRole('button', { name: 'Change password' }).click();
      await password.getByRole('status').filter({ hasText: 'Password changed. Your other sessions are signed out' }).waitFor();
      await screenshot(me, 'profile-saved');

      // The other browser is signed out at once; this one stays.
      await other.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
      await me.reload();
      await me.getByRole('heading', { name: 'Your profile' }).waitFor();
      const login = (pw: string) => run.t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'pat@example.com', password: pw } });
      expect((await login('pat-password-1')).statusCode).toBe(401);
      expect((await login('pat-password-2')).statusCode).toBe(200);
      const row = await run.t.app.ctx.db.selectFrom('agents').select(['name', 'photo_url']).where('email', '=', 'pat@example.com').executeTakeFirstOrThrow();
      expect(row).toEqual({ name: 'Pat Renamed', photo_url: 'https://images.example.com/pat.png' });
    } finally {
      await here.close();
      await there.close();
    }
  });
});
