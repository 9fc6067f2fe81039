/**
 * Mails to agents in the agent's language (docs/I18N.md "Mails and
 * notifications"), end to end against a real SMTP server: a notification
 * to an agent's address is written in that agent's language (German,
 * Arabic right to left), to an agent who chose none in English; a
 * notification address that is no agent's gets the language every active
 * admin chose, English once they differ; an invitation is in the inviting
 * admin's language, a reset and an e-mail confirmation in the agent's own;
 * the archive copy to an agent's address in that agent's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { htmlLinks, startSmtp, type ReceivedMail, type TestSmtp } from '../../test/helpers/smtp.js';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../test/helpers/widget.js';

const ACCOUNT = 'Eckladen';
const SHARED = 'desk@shared.example';

describe('mails in the agent’s language', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let widget: TestWidget;
  let dora: { id: number; token: string };
  let amal: { id: number; token: string };

  const inject = (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
  const chooseLanguage = async (token: string, language: string | null) => expect((await inject('PATCH', '/me', token, { language })).statusCode).toBe(200);
  const notifyTo = async (emails: string[]) => expect((await inject('PUT', '/settings', t.adminToken, { notifications: { emails } })).statusCode).toBe(200);

  /** The mail to `to` whose subject passes `subject`, once it arrived. */
  const mailTo = (to: string, subject: (s: string) => boolean): Promise<ReceivedMail> =>
    waitFor(() => smtp.mails.find((m) => m.envelope.to.includes(to) && subject(m.parsed.subject ?? '')), 20_000);

  /** An offline message from Bo; resolves once it is stored. */
  async function offlineMessage(message: string): Promise<void> {
    const s = await startSession(t, widget.widget_id);
    const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { name: 'Bo', phone: '+15550100', message });
    expect(res.json()).toEqual({ result: 'ok' });
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    await t.app.ctx.db.updateTable('accounts').set({ name: ACCOUNT }).execute();
    widget = await createWidget(t, { name: 'Laden' });
    dora = await addAgent(t, { email: 'dora@example.com', name: 'Dora' });
    amal = await addAgent(t, { email: 'amal@example.com', name: 'Amal' });
    await addAgent(t, { email: 'nell@example.com', name: 'Nell' });
    await chooseLanguage(dora.token, 'de');
    await chooseLanguage(amal.token, 'ar');
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("writes a notification to each agent's address in that agent's language, English for one who chose none", async () => {
    await notifyTo(['dora@example.com', 'amal@example.com', 'nell@example.com', SHARED]);
    await offlineMessage('Bitte rufen Sie mich an');

    const de = await mailTo('dora@example.com', (s) => s.includes('Bo'));
    expect(de.parsed.subject).toBe('Offline-Nachricht von Bo');
    const deText = de.parsed.text ?? '';
    expect(deText).toMatch(/^Neue Offline-Nachricht von Bo\n/);
    expect(deText).toContain('Telefon: +15550100');
    expect(deText).toContain('Kanal: Laden');
    // The date in German, in the account's time zone (UTC until one is set).
    expect(deText).toMatch(/Eingegangen: \d{1,2}\. [A-ZÄÖÜ][a-zäöü]+\.? \d{4}, \d\d:\d\d \(UTC\)/);
    expect(deText).toContain('Offline-Nachrichten öffnen: http://parley.test/offline');
    expect(deText).toContain(`Von Parley gesendet für ${ACCOUNT}. Sie erhalten diese Mail, weil Ihre Adresse eine Benachrichtigungsadresse dieses Kontos ist`);
    expect(de.parsed.html).toMatch(/^<!doctype html><html lang="de" dir="ltr">/);
    expect(de.parsed.html).toContain('<a href="http://parley.test/admin/settings#notifications">Benachrichtigungseinstellungen ändern</a>');
    expect(htmlLinks(de)).toEqual(['http://parley.test/offline', 'http://parley.test/admin/settings#notifications']);

    const ar = await mailTo('amal@example.com', (s) => s.includes('Bo'));
    expect(ar.parsed.subject).toBe('رسالة خارج أوقات الاتصال من Bo');
    expect(ar.parsed.text).toContain('الهاتف: +15550100');
    expect(ar.parsed.text).toContain('فتح الرسائل خارج أوقات الاتصال: http://parley.test/offline');
    expect(ar.parsed.text).toContain(`أُرسلت بواسطة Parley لصالح ${ACCOUNT}.`);
    expect(ar.parsed.html).toMatch(/^<!doctype html><html lang="ar" dir="rtl">/);

    for (const to of ['nell@example.com', SHARED]) {
      const mail = await mailTo(to, (s) => s.includes('Bo'));
      expect(mail.parsed.subject).toBe('Offline message from Bo');
      expect(mail.parsed.text).toMatch(/Received: \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d \(UTC\)/);
      expect(mail.parsed.text).toContain(`Sent by Parley for ${ACCOUNT}. You get this mail because`);
      expect(mail.parsed.html).toMatch(/^<!doctype html><html lang="en" dir="ltr">/);
    }
  });

  it("writes to a notification address that is no agent's in the language every active admin chose, else English", async () => {
    await notifyTo([SHARED]);
    await chooseLanguage(t.adminToken, 'de');
    await offlineMessage('first');
    expect((await mailTo(SHARED, (s) => s.startsWith('Offline-Nachricht'))).parsed.text).toContain('> first');

    // A second admin who chose Arabic: the admins no longer agree.
    const second = await addAgent(t, { email: 'second-admin@example.com', role: 'admin', name: 'Sami' });
    await chooseLanguage(second.token, 'ar');
    const before = smtp.mails.length;
    await offlineMessage('second');
    const mail = await waitFor(() => smtp.mails.slice(before).find((m) => m.envelope.to.includes(SHARED)), 20_000);
    expect(mail.parsed.subject).toBe('Offline message from Bo');
    expect(mail.parsed.text).toContain('> second');
    // Gone again: the one admin left chose German.
    expect((await inject('PATCH', `/agents/${second.id}`, t.adminToken, { active: false })).statusCode).toBe(200);
  });

  it("sends an invitation in the inviting admin's language, a reset and an address confirmation in the agent's own", async () => {
    // The admin chose German in the test before.
    const inv = await inject('POST', '/agents', t.adminToken, { name: 'Ines', email: 'ines@example.com', role: 'agent' });
    expect(inv.statusCode, inv.body).toBe(201);
    const invitation = await mailTo('ines@example.com', () => true);
    expect(invitation.parsed.subject).toBe(`Sie sind eingeladen, Chats für ${ACCOUNT} zu beantworten`);
    const invText = invitation.parsed.text ?? '';
    expect(invText).toMatch(/^Hallo Ines,\n/);
    expect(invText).toContain(`hat Sie eingeladen, auf Parley Chats für ${ACCOUNT} zu beantworten. Ihr Anmeldename ist ines@example.com.`);
    expect(invText).toMatch(/Er funktioniert einmal, bis \d{1,2}\. [A-ZÄÖÜ][a-zäöü]+\.? \d{4}, \d\d:\d\d \(UTC\)\./);
    expect(invText).toMatch(/Mein Passwort wählen: http:\/\/parley\.test\/\S+/);

    const reset = await inject('POST', `/agents/${amal.id}/password-reset`, t.adminToken);
    expect(reset.statusCode, reset.body).toBe(202);
    const ar = await mailTo('amal@example.com', (s) => s.includes('كلمة مرور'));
    expect(ar.parsed.subject).toBe(`إعادة تعيين كلمة مرور ${ACCOUNT}`);
    expect(ar.parsed.text).toContain('مرحبًا Amal،');
    expect(ar.parsed.html).toMatch(/^<!doctype html><html lang="ar" dir="rtl">/);

    const forgot = await t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: 'nell@example.com' } });
    expect(forgot.statusCode).toBeLessThan(300);
    const en = await mailTo('nell@example.com', (s) => s.startsWith('Reset'));
    expect(en.parsed.subject).toBe(`Reset your ${ACCOUNT} password`);
    expect(en.parsed.text).toContain('Someone (hopefully you) asked to reset the password of nell@example.com on Parley.');

    const change = await inject('POST', '/me/email', dora.token, { email: 'dora.neu@example.com' });
    expect(change.statusCode, change.body).toBeLessThan(300);
    const confirm = await mailTo('dora.neu@example.com', () => true);
    expect(confirm.parsed.subject).toBe(`Bestätigen Sie Ihre neue E-Mail-Adresse für ${ACCOUNT}`);
    expect(confirm.parsed.text).toContain('Sie möchten dora.neu@example.com statt dora@example.com als Ihre E-Mail-Adresse');
    expect(confirm.parsed.text).toContain('Die Adresse bleibt dora@example.com.');
  });

  it("writes the archive copy to an agent's address in that agent's language, private notes marked in it", async () => {
    expect((await inject('PUT', '/settings', t.adminToken, { notifications: { archive_email: 'amal@example.com' } })).statusCode).toBe(200);
    const s = await startSession(t, widget.widget_id);
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { name: 'Vera' })).statusCode).toBe(200);
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'Where is my order?');
    expect((await inject('POST', `/chats/${chat_id}/accept`, t.adminToken)).statusCode).toBe(200);
    expect((await inject('POST', `/chats/${chat_id}/messages`, t.adminToken, { type: 'text', text: 'VIP customer', internal: true })).statusCode).toBe(201);
    expect((await inject('POST', `/chats/${chat_id}/finish`, t.adminToken, {})).statusCode).toBe(200);
    const mail = await mailTo('amal@example.com', (subject) => subject.includes(String(chat_id)));
    expect(mail.parsed.subject).toBe(`المحادثة رقم ${chat_id} مع Vera`);
    const text = mail.parsed.text ?? '';
    expect(text).toContain('الاسم: Vera');
    expect(text).toContain('(ملاحظة داخلية)\u2069: VIP customer');
    expect(text).toContain(`فتح المحادثة: http://parley.test/chats/${chat_id}`);
    expect(mail.parsed.html).toMatch(/^<!doctype html><html lang="ar" dir="rtl">/);
  });
});
