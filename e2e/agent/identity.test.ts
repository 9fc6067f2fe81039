/**
 * A new business's first day in a real browser (#36 items 1, 2, 4, 5):
 * - a fresh start with a generated password: the first sign-in asks for the
 *   owner's e-mail, the company's name and a new password; the header then
 *   says the company's name, Settings changes it, Profile changes the owner's
 *   e-mail through a link mailed to the new address (read at a real SMTP
 *   server: From the company's name, To the new address), and a loopback
 *   webhook URL is refused naming OUTBOUND_ALLOW_PRIVATE; a visitor's offline
 *   message is then mailed to the owner's new address, From the company's
 *   name, its Message-ID at PUBLIC_URL's host;
 * - without SMTP: an invitation says it is kept on the Mail page, whose card
 *   offers its link to copy (which opens the set-password page); an admin
 *   changes an agent's e-mail (a taken one refused in words); an agent's own
 *   change is made at once and the Profile says why.
 * Screenshots of each state, the error states included, go to test-artifacts/.
 */
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../server/app.js';
import { loadConfig } from '../../server/config/config.js';
import { addAgent } from '../../test/helpers/accounts.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { htmlLinks, startSmtp, type TestSmtp } from '../../test/helpers/smtp.js';
import { freshStore, type TestStore } from '../../test/helpers/testApp.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, reportFailure, signIn, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: the first start of a new business', () => {
  let store: TestStore;
  let smtp: TestSmtp;
  let app: App;
  let base: string;
  let generated: string;
  let browser: Browser;
  let page: Page;
  const log: string[] = [];

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    store = freshStore();
    smtp = await startSmtp();
    // As a fresh clone starts: no ADMIN_EMAIL / ADMIN_PASSWORD, no OUTBOUND_ALLOW_PRIVATE; mail through a real SMTP server.
    const config = loadConfig({ PUBLIC_URL: 'http://127.0.0.1', LOG_LEVEL: 'silent', SMTP_URL: smtp.url, MAIL_FROM: 'parley@acme.example', ...store.env });
    app = await buildApp({ config, bootstrap: 'later', logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    generated = (await app.createFirstAccount()).generatedPassword as string;
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(20_000);
    collectBrowserLog(page, log);
  });
  afterEach(async ({ task }) => reportFailure(task, page, log));
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await smtp?.close();
    await store?.cleanup();
  });

  it('asks for the e-mail, the company name and a new password, then opens the app under the company name', async () => {
    await page.goto(`${base}/`);
    await page.locator('input[type="email"][name="email"]').fill('admin@localhost.localdomain');
    await page.locator('input[type="password"][name="password"]').fill(generated);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Welcome to Parley' }).waitFor();
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    expect(await page.getByLabel('Your e-mail address').inputValue()).toBe('');
    expect(await page.getByText('in place of admin@localhost.localdomain').isVisible()).toBe(true);
    await screenshot(page, 'identity-first-run');

    await page.getByLabel('Your e-mail address').fill('owner@acme.example');
    await page.getByLabel('Company name').fill('Acme Bikes');
    await page.getByLabel('New password', { exact: true }).fill('owner-password-1');
    await page.getByLabel('The same password again').fill('owner-password-2');
    await page.getByRole('button', { name: 'Save and start' }).click();
    await page.getByRole('alert').filter({ hasText: 'The two passwords differ' }).waitFor();
    await screenshot(page, 'identity-first-run-differ');

    await page.getByLabel('The same password again').fill('owner-password-1');
    await page.getByRole('button', { name: 'Save and start' }).click();
    await page.locator('.conn-live').waitFor({ timeout: 10_000 });
    await page.locator('.brand').filter({ hasText: 'Acme Bikes' }).waitFor();
    await screenshot(page, 'identity-first-run-done');
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'owner@acme.example', password: 'owner-password-1' } });
    expect(login.json().must_change_password).toBe(false);
  });

  it('Settings changes the company name, and the header follows at once', async () => {
    await page.goto(`${base}/admin/settings`);
    const field = page.locator('#account-name');
    await field.waitFor();
    expect(await field.inputValue()).toBe('Acme Bikes');
    await field.fill('x'.repeat(100) + 'y');
    expect((await field.inputValue()).length).toBe(100);
    await field.fill('Acme Bikes Ltd');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Saved: mails and the widget now say "Acme Bikes Ltd".').waitFor();
    await page.locator('.brand').filter({ hasText: 'Acme Bikes Ltd' }).waitFor();
    await screenshot(page, 'identity-settings-company-name');
  });

  it('refuses a loopback webhook URL, saying OUTBOUND_ALLOW_PRIVATE allows it', async () => {
    await page.goto(`${base}/admin/settings`);
    await page.locator('#event-webhook-url').fill('http://127.0.0.1:9/hook');
    await page.locator('form[aria-labelledby="integration-title"]').getByRole('button', { name: 'Save' }).click();
    const error = page.locator('form[aria-labelledby="integration-title"] .error');
    await error.waitFor();
    const text = await error.innerText();
    expect(text).toContain('Parley does not send to 127.0.0.1');
    expect(text).toContain('Use a public address');
    expect(text).toContain('OUTBOUND_ALLOW_PRIVATE=1');
    await screenshot(page, 'identity-webhook-private-refused');
  });

  it("Profile changes the owner's e-mail through the link mailed to the new address", async () => {
    await page.goto(`${base}/profile`);
    await page.getByRole('heading', { name: 'E-mail address' }).waitFor();
    await page.getByText('A new address gets a link: it becomes yours when you open that link.').waitFor();
    await page.getByLabel('New e-mail address').fill('Owner@Acme-Bikes.example');
    await page.getByRole('button', { name: 'Change e-mail' }).click();
    await page.getByText('We sent a link to owner@acme-bikes.example').waitFor();
    await page.getByText('Waiting for you to open the link sent to owner@acme-bikes.example').waitFor();
    await screenshot(page, 'identity-profile-email-pending');

    const mail = await waitFor(() => smtp.mails.find((m) => m.envelope.to.includes('owner@acme-bikes.example')), 20_000);
    expect(mail.parsed.subject).toBe('Confirm your new e-mail address for Acme Bikes Ltd');
    expect(mail.parsed.from?.value[0]).toEqual({ name: 'Acme Bikes Ltd', address: 'parley@acme.example' });
    expect(mail.parsed.to && 'value' in mail.parsed.to ? mail.parsed.to.value[0].address : '').toBe('owner@acme-bikes.example');
    expect(mail.parsed.text).toContain('Sent by Parley for Acme Bikes Ltd.');
    const link = htmlLinks(mail).find((l) => l.includes('/confirm-email?token='));
    expect(link).toBeDefined();

    await page.goto(`${base}/confirm-email${new URL(link as string).search}`);
    await page.getByRole('heading', { name: 'Confirm your new e-mail address' }).waitFor();
    await screenshot(page, 'identity-confirm-email');
    await page.getByRole('button', { name: 'Use this address' }).click();
    await page.locator('.conn-live').waitFor({ timeout: 10_000 });
    await page.goto(`${base}/profile`);
    await page.locator('.profile strong').filter({ hasText: 'owner@acme-bikes.example' }).first().waitFor();
    await screenshot(page, 'identity-profile-email-changed');

    // The link works once: opened again, it says so.
    await page.goto(`${base}/confirm-email${new URL(link as string).search}`);
    await page.getByRole('button', { name: 'Use this address' }).click();
    await page.getByRole('alert').filter({ hasText: 'This link is no longer valid' }).waitFor();
    await screenshot(page, 'identity-confirm-email-used');
  });

  it("sends a visitor's offline message to the owner's new address, from the company's name", async () => {
    // Notification addresses are empty (the default): every active admin gets it, here the owner.
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'owner@acme-bikes.example', password: 'owner-password-1' } });
    expect(login.statusCode, login.body).toBe(200);
    const channel = await app.inject({
      method: 'POST',
      url: '/api/v1/channels',
      headers: { authorization: `Bearer ${login.json<{ token: string }>().token}` },
      payload: { type: 'widget', name: 'Shop' },
    });
    expect(channel.statusCode, channel.body).toBe(201);
    const widgetId = channel.json<{ widget_id: string }>().widget_id;
    const session = await app.inject({
      method: 'POST',
      url: `/widget/api/${widgetId}/session`,
      payload: { page: { url: 'https://acme-bikes.example/', title: 'Shop' } },
    });
    expect(session.statusCode, session.body).toBe(200);
    const sent = await app.inject({
      method: 'POST',
      url: `/widget/api/${widgetId}/offline`,
      headers: { authorization: `Bearer ${session.json<{ visitor_token: string }>().visitor_token}` },
      payload: { name: 'Bo', email: 'bo@example.com', message: 'Is the red bike in stock?' },
    });
    expect(sent.json()).toEqual({ result: 'ok' });

    const mail = await waitFor(() => smtp.mails.find((m) => m.parsed.text?.includes('Is the red bike in stock?')), 20_000);
    expect(mail.envelope.to).toEqual(['owner@acme-bikes.example']);
    expect(mail.envelope.to).not.toContain('admin@localhost.localdomain');
    expect(mail.parsed.from?.value[0]).toEqual({ name: 'Acme Bikes Ltd', address: 'parley@acme.example' });
    expect(mail.parsed.text).toContain('Sent by Parley for Acme Bikes Ltd.');
    // Message-IDs name PUBLIC_URL's host (here http://127.0.0.1), not a made-up one.
    expect(mail.parsed.messageId).toMatch(/^<[^@>]+@127\.0\.0\.1>$/);
  });
});

describe.skipIf(!chromiumAvailable())('agent app: e-mail and invitations without SMTP', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const log: string[] = [];

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(20_000);
    collectBrowserLog(page, log);
    await signIn(page, run.base, 'admin@example.com', 'admin-password-1');
  });
  afterEach(async ({ task }) => reportFailure(task, page, log));
  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('an invitation says it is kept on the Mail page, which offers its link to copy', async () => {
    await page.goto(`${run.base}/admin/agents`);
    const form = page.locator('form[aria-labelledby="new-agent"]');
    await form.getByLabel('Name').fill('Nina Novak');
    await form.getByLabel('E-mail').fill('nina@example.com');
    await form.getByRole('button', { name: 'Invite agent' }).click();
    await page.getByText('the invitation to nina@example.com is only kept on the Mail page').first().waitFor();
    expect(await page.getByText('is on its way').count()).toBe(0);
    await page.getByRole('link', { name: 'Open the Mail page' }).waitFor();
    await screenshot(page, 'identity-invitation-kept');

    await page.getByRole('link', { name: 'Open the Mail page' }).click();
    const card = page.locator('.mails li').filter({ hasText: 'nina@example.com' });
    await card.getByRole('button', { name: 'Copy the invitation link' }).click();
    const linkField = card.locator('.copy-field input');
    await linkField.waitFor();
    const url = await linkField.inputValue();
    expect(url).toMatch(/\/set-password\?token=/);
    await screenshot(page, 'identity-mail-copy-link');

    const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await other.goto(`${run.base}${new URL(url).pathname}${new URL(url).search}`);
    await other.getByText('nina@example.com').first().waitFor();
    await screenshot(other, 'identity-copied-link-opens');
    await other.close();
  });

  it("an admin changes an agent's e-mail; a taken one is refused in words", async () => {
    await addAgent(run.t, { email: 'olaf@example.com', name: 'Olaf' });
    await page.goto(`${run.base}/admin/agents`);
    await page.getByRole('row').filter({ hasText: 'olaf@example.com' }).getByRole('button', { name: /Edit/ }).click();
    const edit = page.locator('form[aria-labelledby="edit-agent-title"]');
    await edit.getByLabel('E-mail').fill('nina@example.com');
    await edit.getByRole('button', { name: 'Save agent' }).click();
    await edit.locator('.error').filter({ hasText: 'nina@example.com' }).waitFor();
    await screenshot(page, 'identity-agent-email-taken');
    await edit.getByLabel('E-mail').fill('olaf@acme.example');
    await edit.getByRole('button', { name: 'Save agent' }).click();
    await edit.getByText('signs in as olaf@acme.example from now on').waitFor();
    await page.getByRole('row').filter({ hasText: 'olaf@acme.example' }).first().waitFor();
    await screenshot(page, 'identity-agent-email-changed');
  });

  it("an agent's own change is made at once, and the Profile says why", async () => {
    const agentPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await addAgent(run.t, { email: 'pia@example.com', name: 'Pia', password: 'pia-password-1' });
    await signIn(agentPage, run.base, 'pia@example.com', 'pia-password-1');
    await agentPage.goto(`${run.base}/profile`);
    await agentPage.getByText('This server sends no mail (SMTP_URL is not set), so a new address is yours at once').waitFor();
    await agentPage.getByLabel('New e-mail address').fill('pia@home.example');
    await agentPage.getByRole('button', { name: 'Change e-mail' }).click();
    await agentPage.getByText('Your e-mail is now pia@home.example').waitFor();
    await screenshot(agentPage, 'identity-profile-email-at-once');
    await agentPage.close();
  });
});
