/**
 * The workspace in another language (docs/I18N.md), in a real browser: an
 * agent whose language is German (PATCH /api/v1/me) sees the inbox with a
 * waiting chat-channel chat, opens it, and reads the messages, the visitor
 * panel, the composer, the transfer menu and the finish form in German; then
 * the language turns Arabic while the app runs (the stream's agent.updated),
 * and the same screens read Arabic, laid out right to left. Screenshots:
 * test-artifacts/i18n-workspace-*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { bearer } from '../../test/helpers/testApp.js';
import { screenshot, chromiumAvailable } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: the workspace in German and Arabic', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const log: string[] = [];
  let channel: ChatChannel;
  let customer: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  const inbound = async (body: unknown) => expect((await postInbound(run.t, channel, body)).statusCode).toBe(200);
  const setLanguage = async (language: string | null) => {
    const res = await run.t.app.inject({ method: 'PATCH', url: '/api/v1/me', headers: bearer(run.t.adminToken), payload: { language } });
    expect(res.statusCode).toBe(200);
  };
  const html = () => page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    customer = await startCustomerEndpoint();
    run = await startApp();
    channel = await createChatChannel(run.t, { webhook_url: `${customer.url}/hook`, name: 'Support app' });
    await addAgent(run.t, { email: 'bob@example.com', name: 'Bob Builder' });
    const dept = await run.t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(run.t.adminToken), payload: { name: 'Sales' } });
    expect(dept.statusCode).toBe(201);
    ({ browser, page } = await openAsAdmin(run, log, 900));
  });

  afterEach(({ task }) => reportFailure(task, page, log));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
    await customer?.close();
  });

  it('German: the inbox lists the waiting chat in German', async () => {
    await setLanguage('de');
    await page.reload();
    await page.locator('.conn-live').waitFor();
    expect(await html()).toEqual({ lang: 'de', dir: 'ltr' });
    await inbound(textMessage('cust-1', 'Hallo, wo ist meine Bestellung?', { name: 'Erika Muster', email: 'erika@example.com' }));
    const tabs = page.getByRole('navigation', { name: 'Chatlisten' });
    await tabs.getByRole('link', { name: /Wartend/ }).waitFor();
    await tabs.getByRole('link', { name: /Meine Chats/ }).waitFor();
    await tabs.getByRole('link', { name: /Alle aktiven/ }).waitFor();
    const row = page.locator('.chat-item', { hasText: 'Erika Muster' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Hallo, wo ist meine Bestellung?');
    await row.getByRole('button', { name: 'Erika Muster antworten' }).waitFor();
    await page.getByText('Wählen Sie einen Chat, um ihn zu lesen.', { exact: false }).waitFor();
    await screenshot(page, 'i18n-workspace-de-inbox');
  });

  it('German: the conversation, the visitor panel and the composer', async () => {
    await page.locator('.chat-item', { hasText: 'Erika Muster' }).getByRole('button', { name: 'Erika Muster antworten' }).click();
    await page.waitForURL(/\/chats\/\d+$/);
    const messages = page.getByRole('log', { name: 'Nachrichten' });
    await messages.getByText('Hallo, wo ist meine Bestellung?').waitFor();
    await page.locator('.conversation-header').getByText('Aktiv', { exact: true }).waitFor();
    const panel = page.locator('aside.visitor-panel');
    await panel.getByRole('heading', { name: 'Besucher' }).waitFor();
    await panel.getByText('Besuchernummer').waitFor();
    await panel.getByRole('heading', { name: 'Frühere Chats' }).waitFor();
    await panel.getByText('Dies ist der erste Chat des Besuchers.').waitFor();
    await panel.getByRole('button', { name: 'Besucher löschen' }).waitFor();

    const composer = page.getByRole('form', { name: 'Antwort' });
    const box = composer.getByRole('textbox', { name: 'Nachricht an den Besucher' });
    expect(await box.getAttribute('placeholder')).toBe('Antwort schreiben… (Eingabe sendet, Umschalt+Eingabe für eine neue Zeile, / für Textbausteine)');
    await composer.getByRole('button', { name: 'Datei anhängen' }).waitFor();
    await composer.getByRole('checkbox', { name: 'Private Notiz' }).waitFor();
    await box.fill('Ihre Bestellung ist unterwegs.');
    await composer.getByRole('button', { name: 'Senden' }).click();
    const mine = messages.locator('.message.agent', { hasText: 'Ihre Bestellung ist unterwegs.' });
    await mine.locator('[data-delivery="delivered"]').waitFor();
    expect(await mine.locator('[data-delivery="delivered"]').textContent()).toBe('✓ Zugestellt');
    await waitFor(() => customer.requests.some((r) => r.body.includes('Ihre Bestellung ist unterwegs.')));

    await composer.getByRole('checkbox', { name: 'Private Notiz' }).check();
    await composer.getByRole('textbox', { name: 'Private Notiz (wird nicht an den Besucher gesendet)' }).waitFor();
    await composer.getByRole('button', { name: 'Notiz hinzufügen' }).waitFor();
    await composer.getByRole('checkbox', { name: 'Private Notiz' }).uncheck();
    await screenshot(page, 'i18n-workspace-de-conversation');
  });

  it('German: the transfer menu and the finish form', async () => {
    const header = page.locator('.conversation-header');
    await header.getByRole('button', { name: 'Weiterleiten', exact: true }).click();
    const transfer = page.getByRole('group', { name: 'An einen anderen Agenten weiterleiten' });
    await transfer.getByRole('button', { name: 'An Bob Builder weiterleiten (offline)' }).waitFor();
    await transfer.getByRole('list', { name: 'Abteilungen' }).getByRole('button', { name: 'An die Abteilung Sales weiterleiten' }).waitFor();
    await screenshot(page, 'i18n-workspace-de-transfer');
    await header.getByRole('button', { name: 'Weiterleiten', exact: true }).click();

    await header.getByRole('button', { name: 'Chat beenden' }).click();
    const finish = page.getByRole('form', { name: 'Chat beenden' });
    await finish.getByRole('checkbox', { name: 'Den Besucher auf die Sperrliste setzen (spätere Nachrichten erreichen keine Agenten)' }).waitFor();
    await finish.getByRole('button', { name: 'Beenden' }).waitFor();
    await screenshot(page, 'i18n-workspace-de-finish');
    await finish.getByRole('button', { name: 'Abbrechen' }).click();
    await finish.waitFor({ state: 'detached' });
  });

  it('Arabic, while the app runs: the same screens right to left', async () => {
    await setLanguage('ar');
    // No reload: the stream's agent.updated brings the choice, and every screen draws its texts again.
    await waitFor(async () => (await html()).dir === 'rtl');
    expect(await html()).toEqual({ lang: 'ar', dir: 'rtl' });
    const messages = page.getByRole('log', { name: 'الرسائل' });
    await messages.getByText('Hallo, wo ist meine Bestellung?').waitFor();
    expect(await messages.locator('[data-delivery="delivered"]').textContent()).toBe('✓ تم التسليم');
    const panel = page.locator('aside.visitor-panel');
    await panel.getByRole('heading', { name: 'الزائر' }).waitFor();
    await panel.getByRole('heading', { name: 'المحادثات السابقة' }).waitFor();
    const composer = page.getByRole('form', { name: 'الرد' });
    await composer.getByRole('textbox', { name: 'رسالة إلى الزائر' }).waitFor();
    await composer.getByRole('button', { name: 'إرسال' }).waitFor();
    await composer.getByRole('button', { name: 'إرفاق ملف' }).waitFor();
    await screenshot(page, 'i18n-workspace-ar-conversation');

    const header = page.locator('.conversation-header');
    await header.getByText('نشطة', { exact: true }).waitFor();
    await header.getByRole('button', { name: 'تحويل', exact: true }).click();
    const transfer = page.getByRole('group', { name: 'تحويل إلى موظف آخر' });
    await transfer.getByRole('button', { name: 'تحويل إلى Bob Builder (غير متصل)' }).waitFor();
    await transfer.getByRole('button', { name: 'تحويل إلى قسم Sales' }).waitFor();
    await screenshot(page, 'i18n-workspace-ar-transfer');
    await header.getByRole('button', { name: 'تحويل', exact: true }).click();

    await header.getByRole('button', { name: 'إنهاء المحادثة' }).click();
    const finish = page.getByRole('form', { name: 'إنهاء المحادثة' });
    await finish.getByRole('checkbox', { name: 'إضافة الزائر إلى قائمة الحظر (لن تصل رسائله اللاحقة إلى الموظفين)' }).waitFor();
    await screenshot(page, 'i18n-workspace-ar-finish');
    await finish.getByRole('button', { name: 'إنهاء', exact: true }).click();
    await page.getByText('انتهت هذه المحادثة.').waitFor();
  });

  it('Arabic: the inbox with a new waiting chat', async () => {
    await inbound(textMessage('cust-2', 'مرحبا، أحتاج إلى مساعدة', { name: 'سارة' }));
    const tabs = page.getByRole('navigation', { name: 'قوائم المحادثات' });
    await tabs.getByRole('link', { name: /في الانتظار/ }).click();
    const row = page.locator('.chat-item', { hasText: 'سارة' });
    await row.getByRole('button', { name: 'رد على سارة' }).waitFor();
    expect(await row.textContent()).toContain('مرحبا، أحتاج إلى مساعدة');
    await screenshot(page, 'i18n-workspace-ar-inbox');
  });

  it('Arabic at phone width: the conversation alone, its way back pointing right', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.locator('.chat-item', { hasText: 'سارة' }).getByRole('button', { name: 'رد على سارة' }).click();
    await page.waitForURL(/\/chats\/\d+$/);
    const back = page.locator('.conversation-header .back');
    await back.waitFor();
    expect((await back.textContent())?.replace(/\s+/g, ' ').trim()).toBe('→ صندوق الوارد');
    await page.getByRole('form', { name: 'الرد' }).getByRole('textbox', { name: 'رسالة إلى الزائر' }).waitFor();
    await screenshot(page, 'i18n-workspace-ar-phone');
    await setLanguage(null);
  });
});
