/**
 * The admin pages in another language, in real Chromium: an administrator
 * chooses German, then Arabic (PATCH /api/v1/me {language}), and every admin
 * page (routes.ts ADMIN_SECTIONS) shows its heading and a label of its own in
 * that language, never the English; a save reports in that language; Arabic
 * lays the page out right to left. Screenshots of a few pages are written to
 * test-artifacts/ (i18n-admin-*.png) to be looked at for overflow and
 * mirroring.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel } from '../../test/helpers/chatChannel.js';
import { bearer } from '../../test/helpers/testApp.js';
import { createWidget } from '../../test/helpers/widget.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ADMIN_SECTIONS, type AdminSection } from '../../web/agent/src/routes.js';
import en from '../../web/agent/src/i18n/en/admin.json';
import de from '../../web/agent/src/i18n/de/admin.json';
import ar from '../../web/agent/src/i18n/ar/admin.json';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

type TextKey = { [K in keyof typeof en]: (typeof en)[K] extends string ? K : never }[keyof typeof en];

/** Each page's heading, and a text of its own that is on the page whatever the data. */
const PAGES: Record<AdminSection, [heading: TextKey, label: TextKey]> = {
  agents: ['admin.agents.title', 'admin.agentForm.title'],
  departments: ['admin.departments.title', 'admin.departments.new'],
  'canned-responses': ['admin.canned.title', 'admin.canned.newTitle'],
  channels: ['admin.channels.title', 'admin.channels.addWidget'],
  settings: ['admin.settings.title', 'admin.settings.integrationTitle'],
  deliveries: ['admin.deliveries.title', 'admin.deliveries.lastAnswer'],
  mail: ['admin.mail.title', 'admin.mail.intro'],
  'sign-in-throttles': ['admin.throttles.title', 'admin.throttles.intro'],
  'working-hours': ['admin.workingHours.title', 'admin.workingHours.intro'],
  assignment: ['admin.assignment.title', 'admin.assignment.accountTitle'],
  files: ['admin.files.title', 'admin.files.intro'],
  system: ['admin.system.title', 'admin.system.backups'],
  audit: ['admin.audit.title', 'admin.audit.intro'],
};

const LANGUAGES = [
  { lang: 'de', dir: 'ltr', texts: de, nav: 'Arbeitszeiten', monday: 'Montag', add: 'Hinzufügen', added: 'Lager hinzugefügt.' },
  { lang: 'ar', dir: 'rtl', texts: ar, nav: 'ساعات العمل', monday: 'الاثنين', add: 'إضافة', added: 'تمت إضافة Lager.' },
] as const;

describe.skipIf(!chromiumAvailable())('agent app: the admin pages in German and Arabic', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const log: string[] = [];

  const api = (method: 'PATCH' | 'DELETE' | 'GET', url: string, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(run.t.adminToken), ...(payload ? { payload } : {}) });

  const open = async (section: AdminSection): Promise<void> => {
    await page.goto(`${run.base}/admin/${section}`);
    await page.locator('.conn-live').waitFor();
    await page.locator('main h1').first().waitFor();
  };

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    // A channel of each kind and a department, so the channel cards and the hours of a department show.
    await createChatChannel(run.t, { name: 'Support app' });
    await createWidget(run.t, { name: 'Shop site' });
    ({ browser, page } = await openAsAdmin(run, log, 900));
  });

  afterEach(async ({ task }) => {
    await reportFailure(task, page, log);
  });

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  for (const { lang, dir, texts, nav, monday, add, added } of LANGUAGES) {
    it(`${lang}: every admin page has its heading and its texts in ${lang}, laid out ${dir}`, { timeout: 120_000 }, async () => {
      expect((await api('PATCH', '/api/v1/me', { language: lang })).statusCode).toBe(200);
      for (const section of ADMIN_SECTIONS) {
        const [heading, label] = PAGES[section];
        await open(section);
        expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([lang, dir]);
        // ("System" is German too: the page's own label tells the languages apart.)
        expect(texts[label]).not.toBe(en[label]);
        await page.getByRole('heading', { level: 1, name: texts[heading], exact: true }).waitFor();
        await page.getByText(texts[label], { exact: true }).first().waitFor();
        expect(await page.getByText(en[label], { exact: true }).count(), `${section}: English "${en[label]}" still shown`).toBe(0);
        // The section tabs are in the language too.
        await page.getByRole('navigation', { name: texts['admin.nav.label'] }).getByRole('link', { name: nav }).waitFor();
      }
    });

    it(`${lang}: a save says its result in ${lang}; weekdays and hours forms speak it`, { timeout: 60_000 }, async () => {
      await open('departments');
      await page.getByLabel(texts['admin.departments.new']).fill('Lager');
      await page.getByRole('button', { name: add, exact: true }).click();
      await page.getByRole('status').filter({ hasText: added }).waitFor();
      await screenshot(page, `i18n-admin-${lang}-departments`);

      await open('working-hours');
      // The account's own hours (not "always open"): the week's days, by their names in the language.
      await page.getByLabel(texts['admin.alwaysOpen'], { exact: true }).first().setChecked(false);
      await page.getByText(monday, { exact: true }).first().waitFor();
      await page.getByRole('button', { name: texts['admin.hours.save'] }).first().click();
      await page
        .getByRole('status')
        .filter({ hasText: texts['admin.workingHours.saved'].split('{status}')[0].trim() })
        .first()
        .waitFor();
      await screenshot(page, `i18n-admin-${lang}-working-hours`);

      await open('settings');
      const company = page.getByRole('form', { name: texts['admin.company.title'] });
      await company.getByLabel(texts['admin.company.title']).fill('Acme Räder');
      await company.getByRole('button', { name: texts['admin.company.save'] }).click();
      await company
        .getByRole('status')
        .filter({ hasText: texts['admin.company.saved'].replace('{name}', 'Acme Räder') })
        .waitFor();
      await screenshot(page, `i18n-admin-${lang}-settings`);

      for (const section of ['agents', 'channels', 'assignment', 'system'] as const) {
        await open(section);
        await page.waitForLoadState('networkidle');
        await screenshot(page, `i18n-admin-${lang}-${section}`);
      }
      // The next language starts from no department of this name.
      const list = (await api('GET', '/api/v1/departments')).json<Array<{ id: number; name: string }>>();
      for (const d of list.filter((x) => x.name === 'Lager')) await api('DELETE', `/api/v1/departments/${d.id}`);
    });
  }
});
