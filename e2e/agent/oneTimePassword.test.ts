/**
 * Signing in with the one-time password of `npm run reset-admin` in a real
 * browser: the app shows only "Choose your own password" (no inbox, no
 * navigation), says so when the two passwords differ, and once the new one is
 * saved opens the app, live; the old one-time password no longer signs in.
 * After a reload on that screen it asks for the one-time password too, and
 * Sign out leaves it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetAdmin } from '../../server/cli/resetAdmin.js';
import { addAgent } from '../../test/helpers/accounts.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: signing in with a one-time password', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  let page: Page;

  const typeSignIn = async (email: string, password: string) => {
    await page.goto(`${run.base}/`);
    await page.locator('input[type="email"][name="email"]').fill(email);
    await page.locator('input[type="password"][name="password"]').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  const login = (email: string, password: string) => run.t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    browser = await launchBrowser();
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && page) {
      await screenshot(page, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
      console.error(`browser log before "${task.name}" failed:\n${browserLog.slice(-40).join('\n')}`);
    }
    await page?.context().close();
  });

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  const newPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    collectBrowserLog(page, browserLog);
  };

  it('shows only the form that chooses the own password, then the app', async () => {
    await addAgent(t(), { email: 'owner2@example.com', role: 'admin', name: 'Olivia Owner' });
    const { password } = await resetAdmin(run.t.config, 'owner2@example.com');
    await newPage();
    await typeSignIn('owner2@example.com', password);

    await page.getByRole('heading', { name: 'Choose your own password' }).waitFor();
    expect(await page.getByText('You signed in with a one-time password').isVisible()).toBe(true);
    // Nothing of the app behind it, and no field for the one-time password just typed.
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    expect(await page.locator('.conn-live').count()).toBe(0);
    expect(await page.getByLabel('One-time password').count()).toBe(0);
    await screenshot(page, 'one-time-password-choose-own');

    await page.getByLabel('New password', { exact: true }).fill('owner-own-pass-1');
    await page.getByLabel('The same password again').fill('owner-own-pass-2');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'The two passwords differ' }).waitFor();
    await screenshot(page, 'one-time-password-differ');

    await page.getByLabel('The same password again').fill('owner-own-pass-1');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.locator('.conn-live').waitFor({ timeout: 10_000 });
    await page.getByRole('link', { name: 'Admin' }).waitFor();
    await screenshot(page, 'one-time-password-changed');

    expect((await login('owner2@example.com', password)).statusCode).toBe(401);
    expect((await login('owner2@example.com', 'owner-own-pass-1')).json().must_change_password).toBe(false);
    // A reload is the app as usual.
    await page.reload();
    await page.locator('.conn-live').waitFor({ timeout: 10_000 });
  });

  it('after a reload asks for the one-time password too; Sign out leaves the screen', async () => {
    await addAgent(t(), { email: 'owner3@example.com', role: 'admin' });
    const { password } = await resetAdmin(run.t.config, 'owner3@example.com');
    await newPage();
    await typeSignIn('owner3@example.com', password);
    await page.getByRole('heading', { name: 'Choose your own password' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Choose your own password' }).waitFor();
    await page.getByLabel('One-time password').waitFor();
    await screenshot(page, 'one-time-password-after-reload');

    await page.getByLabel('One-time password').fill('not-the-one-time-password');
    await page.getByLabel('New password', { exact: true }).fill('owner-own-pass-3');
    await page.getByLabel('The same password again').fill('owner-own-pass-3');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'current password is wrong' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    expect((await login('owner3@example.com', password)).json().error.code).toBe('one_time_password_used');
  });

  const t = () => run.t;
});
