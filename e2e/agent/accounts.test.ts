/**
 * The account lifecycle in a real browser, on the no-SMTP default (mails are
 * kept and shown on the admin's Mail page): the Mail page's empty state; an
 * admin invites an agent from the Agents page, the invitation appears on the
 * Mail page, the agent opens the link, chooses a password and signs in; the
 * used link then says it cannot be used; "Forgot password?" sends a reset
 * link, and an expired link says so; the notification addresses are saved
 * on the Settings page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, signIn, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: invitations, password links and the Mail page', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  let page: Page;

  /** The set-password link of the newest kept mail to `to`, read through the Mail API. */
  const linkMailedTo = async (to: string, type: string): Promise<string> => {
    const mail = await waitFor(async () => {
      const res = await run.t.app.inject({ method: 'GET', url: '/api/v1/mails', headers: bearer(run.t.adminToken) });
      return res.json<Array<{ to: string; type: string; text: string; status: string }>>().find((m) => m.to === to && m.type === type);
    });
    expect(mail.status).toBe('kept');
    const link = /https?:\/\/\S+\/set-password\?token=[\w-]+/.exec(mail.text)?.[0];
    if (!link) throw new Error(`no link in: ${mail.text}`);
    // The mail is built from PUBLIC_URL; the browser reaches this test's listener.
    return `${run.base}${new URL(link).pathname}${new URL(link).search}`;
  };

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    collectBrowserLog(page, browserLog);
    await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail' || !page) return;
    await screenshot(page, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
    console.error(`browser log before "${task.name}" failed:\n${browserLog.slice(-40).join('\n')}`);
  });

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('shows the Mail page empty before anything was mailed', async () => {
    await page.goto(`${run.base}/admin/mail`);
    await page.getByRole('heading', { name: 'Mail' }).waitFor();
    await page.getByText('No mail yet.').waitFor();
    await screenshot(page, 'mail-empty');
  });

  it('invites an agent, who sets a password through the link and signs in; the used link is refused', async () => {
    await page.goto(`${run.base}/admin/agents`);
    const form = page.getByRole('form', { name: 'Add an agent' });
    await form.getByLabel('Name').fill('Ines Invited');
    await form.getByLabel('E-mail').fill('ines@example.com');
    await form.getByRole('button', { name: 'Invite agent' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation sent to ines@example.com.' }).waitFor();
    await screenshot(page, 'agents-invited');

    await page.getByRole('link', { name: 'Mail' }).click();
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

  it('saves the notification addresses in Settings, the result beside the button', async () => {
    await page.goto(`${run.base}/admin/settings`);
    const form = page.getByRole('form', { name: 'Notification e-mails' });
    await form.getByLabel('Send offline messages and callback requests to').fill('sales@example.com\nnot-an-address');
    await form.getByRole('button', { name: 'Save notification e-mails' }).click();
    await form.getByRole('alert').filter({ hasText: 'notifications.emails[1] must be an e-mail address' }).waitFor();
    await form.getByLabel('Send offline messages and callback requests to').fill('Sales@Example.com\ndesk@example.com');
    await form.getByRole('button', { name: 'Save notification e-mails' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved: notifications go to 2 addresses.' }).waitFor();
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-notifications');
    const res = await run.t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(run.t.adminToken) });
    expect(res.json().notifications.emails).toEqual(['sales@example.com', 'desk@example.com']);
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
});
