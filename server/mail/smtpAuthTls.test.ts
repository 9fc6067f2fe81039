/**
 * SMTP credentials never go out in clear text by default (#31 item 12,
 * docs/SECURITY.md): a real SMTP server that offers AUTH and no STARTTLS,
 * reached with smtp://user:password@…, gets no AUTH; the mail is not sent and
 * its delivery row says why. `?cleartext_auth=allow` in SMTP_URL opts out, and
 * the mail goes. A misspelt opt-out stops the start. Both stores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { startSmtp, type TestSmtp } from '../../test/helpers/smtp.js';
import { createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { createWidget, startSession, visitorCall } from '../../test/helpers/widget.js';

describe('SMTP AUTH only over TLS unless SMTP_URL opts out', () => {
  let smtp: TestSmtp | null = null;
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    await smtp?.close();
    t = null;
    smtp = null;
  });

  /** An offline message (mailed to the admins); its mail delivery row once attempted. */
  async function offlineMail(app: TestApp) {
    const widget = await createWidget(app);
    const s = await startSession(app, widget.widget_id);
    expect((await visitorCall(app, widget.widget_id, s.visitor_token, 'offline', { name: 'Bo', email: 'bo@example.com', message: 'Hi' })).statusCode).toBe(200);
    return waitFor(async () => {
      const row = await app.app.ctx.db.selectFrom('deliveries').selectAll().where('kind', '=', 'mail').executeTakeFirst();
      return row && row.attempts >= 1 ? row : null;
    }, 20_000);
  }

  it('sends no credentials to a server without STARTTLS, and records why', async () => {
    smtp = await startSmtp({ user: 'parley', password: 'secret pass' });
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    const row = await offlineMail(t);
    expect(row.status).not.toBe('delivered');
    expect(row.last_error).toContain('offers no TLS (STARTTLS), so the user name and password were not sent');
    expect(row.last_error).toContain('?cleartext_auth=allow');
    expect(smtp.auths).toEqual([]);
    expect(smtp.mails).toEqual([]);
  });

  it('with ?cleartext_auth=allow, authenticates in clear text and delivers', async () => {
    smtp = await startSmtp({ user: 'parley', password: 'secret pass' });
    t = await createTestApp({ env: { SMTP_URL: `${smtp.url}?cleartext_auth=allow` } });
    const first = await offlineMail(t);
    const app = t;
    const row = await waitFor(async () => {
      const r = await app.app.ctx.db.selectFrom('deliveries').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
      return r.status === 'delivered' ? r : null;
    });
    expect(row.status).toBe('delivered');
    expect(smtp.auths).toEqual([{ username: 'parley', secure: false }]);
    expect(smtp.mails).toHaveLength(1);
  });

  it('refuses any other query in SMTP_URL at start', () => {
    const base = { PUBLIC_URL: 'http://parley.test', DATA_DIR: '/tmp' };
    expect(() => loadConfig({ ...base, SMTP_URL: 'smtp://u:p@mail.example.com?cleartext_auth=yes' })).toThrow(
      /SMTP_URL takes no query but \?cleartext_auth=allow/,
    );
    expect(() => loadConfig({ ...base, SMTP_URL: 'smtp://u:p@mail.example.com?tls=off' })).toThrow(/cleartext_auth=allow/);
    expect(loadConfig({ ...base, SMTP_URL: 'smtp://u:p@mail.example.com?cleartext_auth=allow' }).smtpUrl).toContain('cleartext_auth=allow');
  });
});
