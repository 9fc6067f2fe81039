/**
 * Sign-in security in a real browser: the admin's "Sign-in throttles" screen
 * (its empty state, a throttled address appearing, Clear saying what it did
 * and the address signing in again), and "Sign out everywhere" ending this
 * browser's session and the person's other sessions.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: sign-in throttles and signing out everywhere', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  let page: Page;
  const login = (password: string, from: string) =>
    run.t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'x-forwarded-for': from }, payload: { email: ADMIN_EMAIL, password } });

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    ({ browser, page } = await openAsAdmin(run, browserLog, 800));
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('shows an empty state, then a throttled address; Clear says what it did and the address signs in again', async () => {
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Sign-in throttles' }).click();
    await page.getByRole('heading', { name: 'Sign-in throttles' }).waitFor();
    await page.getByText('No sign-in is throttled').waitFor();
    await screenshot(page, 'sign-in-throttles-empty');

    for (let i = 0; i < 5; i++) expect((await login('wrong-password', '203.0.113.9')).statusCode).toBe(401);
    expect((await login(ADMIN_PASSWORD, '203.0.113.9')).statusCode).toBe(429);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = page.getByRole('row', { name: new RegExp(`${ADMIN_EMAIL} from 203\\.0\\.113\\.9`) });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/5/);
    await screenshot(page, 'sign-in-throttles-listed');

    await page.getByRole('button', { name: `Clear the throttle of ${ADMIN_EMAIL} from 203.0.113.9` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Cleared: sign-ins of ${ADMIN_EMAIL} from 203.0.113.9 are accepted again now.` })
      .waitFor();
    await row.waitFor({ state: 'detached' });
    await screenshot(page, 'sign-in-throttles-cleared');
    expect((await login(ADMIN_PASSWORD, '203.0.113.9')).statusCode).toBe(200);
  });

  it('"Sign out everywhere" asks once more, then ends this session and the other ones', async () => {
    const other = await run.t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    // It is on the Profile page, beside the password; the header has only Sign out.
    expect(await page.locator('header').getByRole('button', { name: 'Sign out everywhere' }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    const sessions = page.getByRole('region', { name: 'Sessions' });
    await sessions.getByRole('button', { name: 'Sign out everywhere' }).click();
    await screenshot(page, 'profile-sign-out-everywhere-asks');
    await page.getByRole('group', { name: 'End every session of yours, on every device?' }).getByRole('button', { name: 'Yes' }).click();
    await page.getByText('You are signed out on every device and browser.').waitFor();
    await screenshot(page, 'signed-out-everywhere');
    expect((await run.t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(other) })).statusCode).toBe(401);
    expect((await run.t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(run.t.adminToken) })).statusCode).toBe(401);
    // The browser's own cookie is gone too: a reload shows the sign-in form.
    await page.reload();
    await page.locator('input[type="password"][name="password"]').waitFor();
  });
});
