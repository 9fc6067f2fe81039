/**
 * Password links are stored only as hashes (#31 item 13), both stores: a
 * kept invitation or reset (no SMTP_URL) shows on the Mail page without a
 * link, and nothing stored holds one; a sent one (a real SMTP server) carries
 * a working link whose token appears nowhere in the database, only its
 * sha256 in password_links; a mail sent again carries a new link and the
 * first copy's stops working.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { htmlLinks, startSmtp, type TestSmtp } from '../../test/helpers/smtp.js';
import { bearer, createTestApp, type TestApp, asAdmin } from '../../test/helpers/testApp.js';
import { LINK_SLOT } from '../domain/auth/passwordLinks.js';

/** Every row of the tables a link could hide in, as one text. */
const stored = async (t: TestApp): Promise<string> =>
  JSON.stringify([
    await t.app.ctx.db.selectFrom('deliveries').selectAll().execute(),
    await t.app.ctx.db.selectFrom('password_links').selectAll().execute(),
    await t.app.ctx.db.selectFrom('events').selectAll().execute(),
  ]);

describe('password links in kept mails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('the Mail page shows an invitation and a reset without their links; nothing stored holds one', async () => {
    const invited = await asAdmin(t, 'POST', '/api/v1/agents', { name: 'Kept', email: 'kept@example.com', role: 'agent' });
    expect(invited.statusCode).toBe(201);
    const agent = await addAgent(t, { email: 'kept-reset@example.com' });
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/agents/${agent.id}/password-reset`, headers: bearer(t.adminToken) })).statusCode).toBe(202);

    const mails = (await t.app.inject({ method: 'GET', url: '/api/v1/mails', headers: bearer(t.adminToken) })).json<
      Array<{ type: string; status: string; text: string; html: string }>
    >();
    const shown = mails.filter((m) => m.type === 'invitation' || m.type === 'password_reset');
    expect(shown.map((m) => m.type).sort()).toEqual(['invitation', 'password_reset']);
    for (const mail of shown) {
      expect(mail.status).toBe('kept');
      expect(mail.text).toContain(LINK_SLOT);
      expect(mail.html).toContain(LINK_SLOT);
      expect(`${mail.text}${mail.html}`).not.toContain('set-password');
    }
    expect(await stored(t)).not.toContain('set-password');
  });
});

describe('password links in sent mails', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const tokenMailedTo = async (to: string, after: number): Promise<string> => {
    const mail = await waitFor(() => smtp.mails.slice(after).find((m) => m.envelope.to.includes(to)), 20_000);
    const link = htmlLinks(mail).find((l) => l.includes('/set-password?token='));
    if (!link) throw new Error('no link in the mail');
    expect(mail.parsed.text).toContain(link);
    expect(mail.parsed.text).not.toContain(LINK_SLOT);
    return new URL(link).searchParams.get('token') as string;
  };

  it('the mailed link works; only its hash is stored; a mail sent again carries a new link', async () => {
    const before = smtp.mails.length;
    const res = await asAdmin(t, 'POST', '/api/v1/agents', { name: 'Sent', email: 'sent@example.com', role: 'agent' });
    expect(res.statusCode).toBe(201);
    const token = await tokenMailedTo('sent@example.com', before);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/auth/password-link?token=${token}` })).statusCode).toBe(200);

    const everything = await stored(t);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain('set-password');
    const link = await t.app.ctx.db.selectFrom('password_links').select('token_hash').where('agent_id', '=', res.json().id).executeTakeFirstOrThrow();
    expect(link.token_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));

    // The same stored mail sent once more (a retry, a redelivery): a fresh link; the first copy's no longer opens.
    const row = await t.app.ctx.db.selectFrom('deliveries').select('id').where('event_type', '=', 'mail.invitation').executeTakeFirstOrThrow();
    const again = smtp.mails.length;
    await t.app.ctx.db.updateTable('deliveries').set({ status: 'pending', next_attempt_at: Date.now() }).where('id', '=', row.id).execute();
    t.app.ctx.signals.deliveriesDue();
    const second = await tokenMailedTo('sent@example.com', again);
    expect(second).not.toBe(token);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/auth/password-link?token=${token}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/auth/password-link?token=${second}` })).statusCode).toBe(200);
  });
});
