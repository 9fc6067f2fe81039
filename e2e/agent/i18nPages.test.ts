/**
 * The pages part of the agent app in German and Arabic, in real Chromium
 * (docs/I18N.md): before sign-in the app speaks the browser's language
 * (Playwright's `locale`); after sign-in Profile → Language switches the app
 * at once, keeps the choice over a reload, and sets <html lang dir> (rtl for
 * Arabic); the archive, calls, offline messages and reports are headed in
 * that language and the reports write their dates as the language does.
 * Screenshots of each (and of the inbox, a chat and an admin page in Arabic)
 * go to test-artifacts/ to be looked at.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage, waitFor } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer } from '../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall } from '../../test/helpers/widget.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, reportFailure, signIn, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app pages in German and Arabic', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page | undefined;
  const log: string[] = [];
  let chatId: number;

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    run.t.app.inject({ method, url, headers: bearer(run.t.adminToken), ...(payload ? { payload } : {}) });

  /** A page in a browser context of its own, speaking `locale` (navigator.languages), nothing remembered yet. */
  const open = async (locale: string): Promise<Page> => {
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    p.setDefaultTimeout(20_000);
    collectBrowserLog(p, log);
    page = p;
    return p;
  };

  const html = (p: Page) => p.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));

  const visit = async (p: Page, pathname: string, heading: string): Promise<void> => {
    await p.goto(`${run.base}${pathname}`);
    await p.locator('.conn-live').waitFor();
    await p.getByRole('heading', { level: 1, name: heading }).waitFor();
  };

  /** The Reports page's range line: its first day as the page's own Intl writes a medium date in `lang`. */
  const reportDates = async (p: Page, lang: string): Promise<void> => {
    const status = p.locator('.report-title [role="status"]');
    await expect.poll(async () => (await status.textContent()) ?? '').toMatch(/–/);
    const week = await p.evaluate(() => {
      const d = new Date();
      return new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate() - 6)).getTime();
    });
    const first = await p.evaluate(
      ([l, ms]) => new Intl.DateTimeFormat(l as string, { dateStyle: 'medium', timeZone: 'UTC' }).format(ms as number),
      [lang, week],
    );
    expect(await status.textContent()).toContain(first);
    expect(await status.textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  };

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    const t = run.t;
    // Something on every screen: a chat, an offline message, a callback request, a finished chat in the archive.
    const channel = await createChatChannel(t, { name: 'Support app' });
    await postInbound(t, channel, textMessage('vera-1', 'Hallo, wo ist meine Bestellung?', { name: 'Vera Visitor' }));
    chatId = (await waitFor(async () => (await api('GET', '/api/v1/chats')).json<Array<{ id: number }>>()[0])).id;
    expect((await api('POST', `/api/v1/chats/${chatId}/accept`)).statusCode).toBe(200);
    const widget = await createWidget(t, { name: 'Shop site' });
    expect((await api('PUT', '/api/v1/settings', { callback: { enabled: true, balance_seconds: 600 } })).statusCode).toBe(200);
    const s = await startSession(t, widget.widget_id);
    await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { name: 'Olga', email: 'olga@example.com', message: 'Liefern Sie nach Norwegen?' });
    await visitorCall(t, widget.widget_id, s.visitor_token, 'callback', { phone: '+15550100199' });
    const done = await sendText(t, widget.widget_id, s.visitor_token, 'Eine kurze Frage');
    await api('POST', `/api/v1/chats/${done.chat_id}/accept`);
    await api('POST', `/api/v1/chats/${done.chat_id}/finish`, {});
    browser = await launchBrowser();
  }, 120_000);

  afterEach(async ({ task }) => {
    await reportFailure(task, page, log);
    await page?.context().close();
    page = undefined;
    // Each test starts from the browser's language.
    expect((await api('PATCH', '/api/v1/me', { language: null })).statusCode).toBe(200);
  });

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('shows the sign-in page in the browser’s language before anyone signs in', async () => {
    const de = await open('de-DE');
    await de.goto(`${run.base}/`);
    await de.getByRole('heading', { name: 'Bei Parley anmelden' }).waitFor();
    expect(await html(de)).toEqual({ lang: 'de', dir: 'ltr' });
    await de.getByRole('link', { name: 'Passwort vergessen?' }).waitFor();
    await screenshot(de, 'i18n-pages-sign-in-de');
    await de.context().close();

    const ar = await open('ar-EG');
    await ar.goto(`${run.base}/`);
    await ar.getByRole('heading', { name: 'تسجيل الدخول إلى Parley' }).waitFor();
    expect(await html(ar)).toEqual({ lang: 'ar', dir: 'rtl' });
    await ar.getByRole('button', { name: 'تسجيل الدخول' }).waitFor();
    await screenshot(ar, 'i18n-pages-sign-in-ar');
  });

  it('switches to German from Profile → Language at once, keeps it over a reload, and translates the pages', async () => {
    const p = await open('en-US');
    await signIn(p, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
    await visit(p, '/profile', 'Your profile');
    const language = p.locator('select[name="language"]');
    expect(await language.locator('option').first().textContent()).toBe('Browser’s language (English)');
    // An error shown before the switch is said again in the new language (kept as words to say, not as English text).
    await p.locator('input[name="current_password"]').fill('whatever-1');
    await p.locator('input[name="new_password"]').fill('first-new-1');
    await p.locator('input[name="new_password_again"]').fill('second-new-2');
    await p.getByRole('button', { name: 'Change password' }).click();
    await p.getByRole('alert').filter({ hasText: 'The two new passwords differ' }).waitFor();
    await language.selectOption('de');
    await p.getByRole('heading', { level: 1, name: 'Ihr Profil' }).waitFor();
    await p.getByRole('alert').filter({ hasText: 'Die beiden neuen Passwörter unterscheiden sich' }).waitFor({ timeout: 5000 });
    await p.getByRole('status').filter({ hasText: 'Gespeichert: Die App spricht jetzt diese Sprache.' }).waitFor();
    expect(await html(p)).toEqual({ lang: 'de', dir: 'ltr' });
    expect((await api('GET', '/api/v1/me')).json<{ language: string | null }>().language).toBe('de');
    await screenshot(p, 'i18n-pages-profile-de');

    await p.reload();
    await p.locator('.conn-live').waitFor();
    await p.getByRole('heading', { level: 1, name: 'Ihr Profil' }).waitFor();
    await p.getByRole('link', { name: 'Archiv' }).waitFor();

    await visit(p, '/archive', 'Archiv');
    await p.getByText('Alle Chats durchsuchen').waitFor();
    await screenshot(p, 'i18n-pages-archive-de');
    await visit(p, '/calls', 'Rückrufbitten');
    await p.getByRole('button', { name: 'Agent verbunden' }).waitFor();
    await screenshot(p, 'i18n-pages-calls-de');
    await visit(p, '/offline', 'Offline-Nachrichten');
    await p.getByRole('button', { name: 'Als erledigt markieren' }).waitFor();
    await screenshot(p, 'i18n-pages-offline-de');
    await visit(p, '/reports', 'Berichte');
    await p.getByRole('button', { name: 'Letzte 7 Tage' }).waitFor();
    await reportDates(p, 'de');
    await screenshot(p, 'i18n-pages-reports-de');
  });

  it('switches to Arabic, laid out right to left, and back to the browser’s language', async () => {
    const p = await open('en-US');
    await signIn(p, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
    await visit(p, '/profile', 'Your profile');
    await p.locator('select[name="language"]').selectOption('ar');
    await p.getByRole('heading', { level: 1, name: 'ملفك الشخصي' }).waitFor();
    await p.getByRole('status').filter({ hasText: 'تم الحفظ: يتحدث التطبيق الآن هذه اللغة.' }).waitFor();
    expect(await html(p)).toEqual({ lang: 'ar', dir: 'rtl' });
    await screenshot(p, 'i18n-pages-profile-ar');

    await p.reload();
    await p.locator('.conn-live').waitFor();
    await p.getByRole('heading', { level: 1, name: 'ملفك الشخصي' }).waitFor();
    expect(await html(p)).toEqual({ lang: 'ar', dir: 'rtl' });

    await visit(p, '/archive', 'الأرشيف');
    await screenshot(p, 'i18n-pages-archive-ar');
    await visit(p, '/calls', 'طلبات معاودة الاتصال');
    await screenshot(p, 'i18n-pages-calls-ar');
    await visit(p, '/offline', 'الرسائل دون اتصال');
    await screenshot(p, 'i18n-pages-offline-ar');
    await visit(p, '/reports', 'التقارير');
    await reportDates(p, 'ar');
    await screenshot(p, 'i18n-pages-reports-ar');

    // The rest of the app, mirrored (their words are another part's).
    await p.goto(`${run.base}/`);
    await p.locator('.conn-live').waitFor();
    await screenshot(p, 'i18n-pages-inbox-ar');
    await p.goto(`${run.base}/chats/${chatId}`);
    await p.locator('.conn-live').waitFor();
    await p.getByText('Hallo, wo ist meine Bestellung?').waitFor();
    await screenshot(p, 'i18n-pages-chat-ar');
    await p.goto(`${run.base}/admin/agents`);
    await p.locator('.conn-live').waitFor();
    await p.locator('main h1, main h2').first().waitFor();
    await screenshot(p, 'i18n-pages-admin-ar');

    // Back to the browser's language (null): English here, at once.
    await visit(p, '/profile', 'ملفك الشخصي');
    await p.locator('select[name="language"]').selectOption('');
    await p.getByRole('heading', { level: 1, name: 'Your profile' }).waitFor();
    expect(await html(p)).toEqual({ lang: 'en', dir: 'ltr' });
    expect((await api('GET', '/api/v1/me')).json<{ language: string | null }>().language).toBeNull();
  });
});
