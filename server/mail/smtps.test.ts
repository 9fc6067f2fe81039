/**
 * smtps:// against a real TLS server: the test SMTP server speaks TLS from
 * the first byte with a self-signed certificate made at test time. With
 * SMTP_TLS_CA_FILE naming that certificate the mailer trusts it and the mail
 * arrives over TLS (user and password too); without it the certificate is
 * refused (never sent in clear, never trusted blindly), and the attempt is
 * kept for a retry with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { startSmtp, testCertificate, type TestSmtp } from '../../test/helpers/smtp.js';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../test/helpers/testApp.js';

const forgot = (t: TestApp) => t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: ADMIN_EMAIL } });

const resetRow = (t: TestApp) =>
  waitFor(async () => {
    const row = await t.app.ctx.db
      .selectFrom('deliveries')
      .selectAll()
      .where('kind', '=', 'mail')
      .where('event_type', '=', 'mail.password_reset')
      .executeTakeFirst();
    return row && row.attempts > 0 ? row : undefined;
  }, 20_000);

describe('mail over smtps:// (TLS from the start)', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp({ tls: true, user: 'parley', password: 'tls pass' });
  });
  afterAll(() => smtp.close());

  it('delivers over TLS when SMTP_TLS_CA_FILE names the server certificate', async () => {
    expect(smtp.url).toMatch(/^smtps:\/\/parley:tls%20pass@127\.0\.0\.1:\d+$/);
    const t = await createTestApp({ env: { SMTP_URL: smtp.url, SMTP_TLS_CA_FILE: testCertificate().caFile } });
    try {
      expect(t.config.smtpTlsCa).toContain('-----BEGIN CERTIFICATE-----');
      expect((await forgot(t)).statusCode).toBe(202);
      const row = await resetRow(t);
      expect(row).toMatchObject({ status: 'delivered', last_error: null });
      const mail = await waitFor(() => smtp.mails.find((m) => m.envelope.to.includes(ADMIN_EMAIL)));
      expect(mail.secure).toBe(true);
      expect(mail.parsed.subject).toMatch(/password/i);
      expect(mail.parsed.text).toContain('http://parley.test/set-password?token=');
    } finally {
      await t.close();
    }
  });

  it('refuses a certificate it was not told to trust, and keeps the mail for a retry', async () => {
    const before = smtp.mails.length;
    const t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    try {
      expect((await forgot(t)).statusCode).toBe(202);
      const row = await resetRow(t);
      expect(row.status).toBe('pending');
      expect(row.last_error).toMatch(/self[- ]signed certificate/i);
      expect(smtp.mails.length).toBe(before);
    } finally {
      await t.close();
    }
  });
});
