/**
 * Mail end to end, against a real SMTP server (smtp-server over TCP, parsed
 * with mailparser): offline messages and callback requests mail the
 * account's admins (text and HTML parts, escaped, with their links), a 5xx
 * answer fails the mail for good with the reason, a server that is down and
 * then up gets the mail exactly once; without SMTP_URL mails are kept and
 * admins read them at GET /api/v1/mails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { allRelayed } from '../../test/helpers/realtime.js';
import { freePort, htmlLinks, startSmtp, type TestSmtp } from '../../test/helpers/smtp.js';
import { ADMIN_EMAIL, bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { createWidget, startSession, visitorCall, type TestWidget } from '../../test/helpers/widget.js';

const FROM = 'Acme support <support@acme.example>';
const ACCOUNT = 'Acme <Shop> & Co';
const FOOTER_TEXT = `Sent by Parley for ${ACCOUNT}.`;
const FOOTER_HTML = 'Sent by Parley for Acme &lt;Shop&gt; &amp; Co.';

async function mailRow(t: TestApp, type: string, status: string[] = ['delivered', 'failed', 'kept']) {
  return waitFor(async () => {
    const rows = await t.app.ctx.db.selectFrom('deliveries').selectAll().where('kind', '=', 'mail').where('event_type', '=', `mail.${type}`).execute();
    return rows.find((r) => status.includes(r.status));
  }, 20_000);
}

describe('mail over SMTP', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let widget: TestWidget;

  beforeAll(async () => {
    smtp = await startSmtp({ user: 'parley', password: 's3cret pass' });
    // The test server offers no STARTTLS: credentials in clear text only because the URL says so (smtpAuthTls.test.ts).
    t = await createTestApp({ env: { SMTP_URL: `${smtp.url}?cleartext_auth=allow`, MAIL_FROM: FROM } });
    await t.app.ctx.db.updateTable('accounts').set({ name: ACCOUNT }).execute();
    widget = await createWidget(t, { name: 'Shop <site>' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('mails an offline message to the admins, Reply-To the visitor, with text and escaped HTML parts', async () => {
    const s = await startSession(t, widget.widget_id);
    const body = { name: 'Bo <b>Bold</b>', email: 'bo@example.com', phone: '+15550100', description: 'Order 7', message: 'Call me back\nplease & thanks' };
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', body)).json()).toEqual({ result: 'ok' });
    const row = await mailRow(t, 'offline_message');
    expect(row.status).toBe('delivered');
    const mail = await waitFor(() => smtp.mails.find((m) => m.parsed.subject?.startsWith('Offline message')));
    expect(mail.envelope.to).toEqual([ADMIN_EMAIL]);
    expect(mail.envelope.from).toBe('support@acme.example');
    expect(mail.parsed.from?.text).toBe('"Acme support" <support@acme.example>');
    expect(mail.parsed.replyTo?.value[0].address).toBe('bo@example.com');
    expect(mail.parsed.subject).toBe('Offline message from Bo <b>Bold</b>');
    // At PUBLIC_URL's host (the test app's http://parley.test), not a made-up "parley".
    expect(mail.parsed.messageId).toBe(`<${row.webhook_id}@parley.test>`);
    const text = mail.parsed.text ?? '';
    expect(text).toContain('Name: Bo <b>Bold</b>');
    expect(text).toContain('Phone: +15550100');
    expect(text).toContain('> Call me back\n> please & thanks');
    expect(text).toContain('Channel: Shop <site>');
    expect(text).toContain('Open the offline messages: http://parley.test/offline');
    expect(text).toContain(`Sent by Parley for ${ACCOUNT}. You get this mail because your address is a notification address of this account`);
    expect(text).toContain('http://parley.test/admin/settings#notifications');
    expect(mail.parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    const html = mail.parsed.html || '';
    expect(html).toContain(FOOTER_HTML);
    expect(html).toContain('Bo &lt;b&gt;Bold&lt;/b&gt;');
    expect(html).not.toContain('<b>Bold</b>');
    expect(html).toContain('Call me back<br>please &amp; thanks');
    expect(htmlLinks(mail)).toEqual(['http://parley.test/offline', 'http://parley.test/admin/settings#notifications']);
  });

  it('mails every active admin, not agents', async () => {
    const before = smtp.mails.length;
    await addAgent(t, { email: 'second-admin@example.com', role: 'admin' });
    await addAgent(t, { email: 'plain-agent@example.com', role: 'agent' });
    const s = await startSession(t, widget.widget_id);
    await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { message: 'two admins' });
    await waitFor(() => smtp.mails.length >= before + 2);
    await allRelayed(t.app);
    const to = smtp.mails.slice(before).flatMap((m) => m.envelope.to);
    expect(to.sort()).toEqual([ADMIN_EMAIL, 'second-admin@example.com']);
  });

  it('mails the notification addresses of the settings instead of the admins, once set', async () => {
    const put = (notifications: unknown) => t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(t.adminToken), payload: { notifications } });
    const bad = await put({ emails: ['sales@example.com', 'not an address'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/notifications.emails\[1\] must be an e-mail address/);
    expect((await put({ missed_chat_minutes: 0 })).statusCode).toBe(400);
    const ok = await put({ emails: [' Sales@Example.com', 'desk@example.com'] });
    expect(ok.json().notifications).toEqual({ emails: ['sales@example.com', 'desk@example.com'], missed_chat_minutes: null, archive_email: null });
    try {
      const before = smtp.mails.length;
      const s = await startSession(t, widget.widget_id);
      await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { message: 'to the sales desk' });
      await waitFor(() => smtp.mails.length >= before + 2);
      await allRelayed(t.app);
      await new Promise((r) => setTimeout(r, 300));
      expect(
        smtp.mails
          .slice(before)
          .flatMap((m) => m.envelope.to)
          .sort(),
      ).toEqual(['desk@example.com', 'sales@example.com']);
    } finally {
      expect((await put({ emails: null })).json().notifications.emails).toEqual([]);
    }
  });

  it('mails a callback request with the phone, page and a link to the call', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      headers: bearer(t.adminToken),
      payload: { callback: { enabled: true, balance_seconds: 600 } },
    });
    const s = await startSession(t, widget.widget_id, { page: { url: 'https://shop.example.com/pricing', title: 'Pricing' } });
    const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'callback', { phone: '+15550100199' });
    expect(res.json()).toMatchObject({ result: 'ok' });
    const callId = res.json<{ call_id: number }>().call_id;
    const mails = await waitFor(() => {
      const found = smtp.mails.filter((m) => m.parsed.subject === 'Callback request: +15550100199');
      return found.length >= 2 ? found : null;
    });
    const mail = mails[0];
    expect(mail.parsed.replyTo).toBeUndefined();
    expect(mail.parsed.text).toContain('Phone: +15550100199');
    expect(mail.parsed.text).toContain('Page: https://shop.example.com/pricing');
    expect(mail.parsed.text).toMatch(/Requested: \d+ \w+ \d{4}, \d\d:\d\d \(UTC\)/);
    expect(mail.parsed.text).toContain(`Open the call: http://parley.test/calls?call=${callId}`);
    expect(mail.parsed.text).toContain(FOOTER_TEXT);
    expect(mail.parsed.html).toContain(FOOTER_HTML);
    expect(htmlLinks(mail)).toEqual([`http://parley.test/calls?call=${callId}`, 'http://parley.test/admin/settings#notifications']);
  });

  it('a 5xx answer fails the mail for good, with the reason, after one attempt', async () => {
    smtp.reject = { code: 550, message: 'No such mailbox here' };
    try {
      const s = await startSession(t, widget.widget_id);
      await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { message: 'to a refused box' });
      // One mail per admin (two since 'mails every active admin'): each fails on its own attempt,
      // and the Mail API test below lists them.
      const rows = await waitFor(async () => {
        const rows = await t.app.ctx.db.selectFrom('deliveries').selectAll().where('kind', '=', 'mail').where('status', '=', 'failed').execute();
        return rows.length >= 2 ? rows : null;
      }, 20_000);
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.attempts).toBe(1);
        expect(row.last_status_code).toBe(550);
        expect(row.last_error).toMatch(/refused the mail: .*No such mailbox here/);
      }
    } finally {
      smtp.reject = null;
    }
  });

  it('the Mail API lists the mails with their parts and status; agents may not read it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/mails?limit=2', headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(200);
    const mails = res.json<Array<Record<string, unknown>>>();
    expect(mails).toHaveLength(2);
    expect(mails[0]).toMatchObject({ type: 'offline_message', status: 'failed', subject: expect.stringMatching(/^Offline message/) });
    expect(Number(mails[0].id)).toBeGreaterThan(Number(mails[1].id));
    const agentToken = await t.login('plain-agent@example.com', 'agent-password-1');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/mails', headers: bearer(agentToken) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/mails/status', headers: bearer(agentToken) })).statusCode).toBe(403);
    const status = await t.app.inject({ method: 'GET', url: '/api/v1/mails/status', headers: bearer(t.adminToken) });
    expect(status.json()).toEqual({ smtp: true, from: FROM });
  });
});

describe('mail while the SMTP server is down, then up', () => {
  it('is retried and arrives exactly once', async () => {
    const port = await freePort();
    const t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    let smtp: TestSmtp | null = null;
    try {
      const widget = await createWidget(t);
      const s = await startSession(t, widget.widget_id);
      await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { message: 'while the server was down' });
      const failedOnce = await waitFor(async () => {
        const row = await t.app.ctx.db.selectFrom('deliveries').selectAll().where('kind', '=', 'mail').executeTakeFirst();
        return row && row.attempts >= 1 ? row : null;
      }, 20_000);
      expect(failedOnce.status).toBe('pending');
      expect(failedOnce.last_error).toMatch(/could not be reached/);
      smtp = await startSmtp({ port });
      const delivered = await mailRow(t, 'offline_message', ['delivered']);
      expect(delivered.attempts).toBeGreaterThanOrEqual(2);
      // Nothing more comes: one mail, sent once.
      await new Promise((r) => setTimeout(r, 1500));
      expect(smtp.mails.map((m) => m.parsed.subject)).toEqual([expect.stringMatching(/^Offline message/)]);
    } finally {
      await t.close();
      await smtp?.close();
    }
  });
});

describe('mail answered 4xx', () => {
  it('is retried while the server defers it, then sent once; a mail deferred at every attempt fails after the last one, with the reason', async () => {
    const smtp = await startSmtp();
    const t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    const mailRows = () => t.app.ctx.db.selectFrom('deliveries').selectAll().where('kind', '=', 'mail').orderBy('id').execute();
    /** Skips the schedule's waits: a pending mail's next attempt is made due now. */
    const hurry = async () => {
      await t.app.ctx.db.updateTable('deliveries').set({ next_attempt_at: Date.now() }).where('kind', '=', 'mail').where('status', '=', 'pending').execute();
    };
    try {
      const widget = await createWidget(t);
      const s = await startSession(t, widget.widget_id);
      smtp.reject = { code: 451, message: 'Greylisted, try again later' };
      await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { message: 'deferred once' });
      const deferred = await waitFor(async () => (await mailRows()).find((r) => r.attempts >= 1), 20_000);
      expect(deferred).toMatchObject({ status: 'pending', last_status_code: 451 });
      expect(deferred.last_error).toMatch(/deferred the mail: .*Greylisted/);
      smtp.reject = null;
      await hurry();
      const sent = await waitFor(async () => (await mailRows()).find((r) => r.status === 'delivered'), 20_000);
      expect(sent.attempts).toBe(2);
      expect(smtp.mails).toHaveLength(1);

      smtp.reject = { code: 452, message: 'Mailbox full for now' };
      await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { message: 'deferred for good' });
      const failed = await waitFor(async () => {
        await hurry();
        return (await mailRows()).find((r) => r.status === 'failed');
      }, 60_000);
      expect(failed.attempts).toBe(8);
      expect(failed.last_status_code).toBe(452);
      expect(failed.last_error).toMatch(/Mailbox full for now/);
      expect(smtp.mails).toHaveLength(1);
    } finally {
      await t.close();
      await smtp.close();
    }
  }, 90_000);
});

describe('mail without SMTP_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('keeps the composed mail, unsent, for the Mail page', async () => {
    const widget = await createWidget(t);
    const s = await startSession(t, widget.widget_id);
    await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { name: 'Kim', email: 'kim@example.com', message: 'kept, not sent' });
    await allRelayed(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/mails', headers: bearer(t.adminToken) });
    expect(res.json()).toEqual([
      {
        id: expect.any(Number),
        type: 'offline_message',
        to: ADMIN_EMAIL,
        reply_to: 'kim@example.com',
        subject: 'Offline message from Kim',
        text: expect.stringContaining('> kept, not sent'),
        html: expect.stringContaining('kept, not sent'),
        status: 'kept',
        attempts: 0,
        last_error: null,
        chat_id: null,
        created_at: expect.any(Number),
        delivered_at: null,
        next_attempt_at: null,
      },
    ]);
    // A redelivery of a kept mail keeps it: there is nowhere to send it.
    const id = res.json<Array<{ id: number }>>()[0].id;
    const again = await t.app.inject({ method: 'POST', url: `/api/v1/deliveries/${id}/redeliver`, headers: bearer(t.adminToken) });
    expect(again.json()).toMatchObject({ kind: 'mail', status: 'kept' });
  });

  it('tells the Mail page that mails are kept, not sent', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/mails/status', headers: bearer(t.adminToken) });
    expect(res.json()).toEqual({ smtp: false, from: expect.stringContaining('@') });
  });
});
