/**
 * "E-mail me this conversation" mails only an address the visitor proved
 * (#31 item 2, docs/SECURITY.md): the first request mails a confirmation link
 * (in the widget's language), the conversation follows only once it is
 * opened and pressed, once; a second link per visitor and day is refused, and
 * the caps per visitor and per account hold. An address the page signed with
 * the widget's identity secret counts as proved. Real SMTP server, both stores.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAILS_PER_ACCOUNT_DAY, TRANSCRIPTS_PER_VISITOR_DAY } from '../../domain/widget/transcriptMails.js';
import { waitFor } from '../../../test/helpers/chatChannel.js';
import { startSmtp, type TestSmtp } from '../../../test/helpers/smtp.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../../test/helpers/widget.js';

const ACCOUNT = 'Acme';

describe('transcripts go only to an address the visitor proved', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let widget: TestWidget;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    await t.app.ctx.db.updateTable('accounts').set({ name: ACCOUNT }).execute();
    widget = await createWidget(t);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const mailsTo = (email: string) => smtp.mails.filter((m) => m.envelope.to.includes(email));
  /** Delivery rows of visitor-requested mails to `email`, any status. */
  const rowsTo = (email: string) => t.app.ctx.db.selectFrom('deliveries').selectAll().where('url', '=', `mailto:${email}`).orderBy('id').execute();
  const linkOf = (text: string): string => {
    const m = /http:\/\/parley\.test(\/widget\/transcript\/[A-Za-z0-9_-]+)/.exec(text);
    if (!m) throw new Error(`no confirmation link in: ${text}`);
    return m[1];
  };

  /** A visitor with a chat, having given `email`. */
  async function visitorWith(email: string, text = 'My order 1234 is late', w: TestWidget = widget) {
    const s = await startSession(t, w.widget_id);
    expect((await visitorCall(t, w.widget_id, s.visitor_token, 'contact', { client_name: 'Vi', email })).statusCode).toBe(200);
    const sent = await sendText(t, w.widget_id, s.visitor_token, text);
    return {
      token: s.visitor_token,
      chatId: sent.chat_id,
      visitorId: (await t.app.ctx.db.selectFrom('visitors').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id,
    };
  }

  it('mails a confirmation link first, in the widget’s language; the page’s button sends the conversation, once', async () => {
    const email = 'stranger@example.org';
    const v = await visitorWith(email);
    const ask = await visitorCall(t, widget.widget_id, v.token, 'transcript', { lang: 'de' });
    expect(ask.statusCode).toBe(200);
    expect(ask.json()).toEqual({ result: 'confirmation_sent', chat_id: v.chatId });

    const [confirmation] = await waitFor(() => (mailsTo(email).length >= 1 ? mailsTo(email) : null));
    expect(confirmation.parsed.subject).toBe(`Bestätigen Sie Ihre Adresse, um Ihr Gespräch mit ${ACCOUNT} zu erhalten`);
    // The link only: not a word of the conversation goes to an address nobody proved.
    expect(confirmation.raw).not.toContain('1234');
    const link = linkOf(confirmation.parsed.text ?? '');

    // Asking again: the same link is still the one to open, no second mail; another address: refused for the day.
    expect((await visitorCall(t, widget.widget_id, v.token, 'transcript', { lang: 'de' })).json()).toEqual({ result: 'confirmation_sent', chat_id: v.chatId });
    expect((await visitorCall(t, widget.widget_id, v.token, 'contact', { email: 'victim@example.net' })).statusCode).toBe(200);
    const other = await visitorCall(t, widget.widget_id, v.token, 'transcript', { lang: 'de' });
    expect(other.statusCode).toBe(429);
    expect(other.json().error.message).toContain('already mailed');
    expect(await rowsTo('victim@example.net')).toEqual([]);
    expect((await visitorCall(t, widget.widget_id, v.token, 'contact', { email })).statusCode).toBe(200);

    // Opening the link (a scanner fetching it, say) sends nothing.
    const page = await t.app.inject({ method: 'GET', url: link });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<html lang="de"');
    expect(page.body).toContain('<form method="post">');
    expect(page.body).toContain(email);
    expect((await rowsTo(email)).map((r) => r.event_type)).toEqual(['mail.transcript_confirmation']);

    const press = await t.app.inject({ method: 'POST', url: link, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(press.statusCode).toBe(200);
    expect(press.body).toContain(`Das Gespräch ist unterwegs an ${email}`);
    const transcript = await waitFor(() => mailsTo(email).find((m) => m.parsed.subject === `Ihr Gespräch mit ${ACCOUNT}`));
    expect(transcript.parsed.text).toContain('Vi: My order 1234 is late');

    // Once only.
    const again = await t.app.inject({ method: 'POST', url: link, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain('not valid or was already used');
    expect((await t.app.inject({ method: 'GET', url: '/widget/transcript/not-a-token' })).statusCode).toBe(404);

    // The address is proved now: the next request sends at once.
    const direct = await visitorCall(t, widget.widget_id, v.token, 'transcript', {});
    expect(direct.json()).toEqual({ result: 'ok', chat_id: v.chatId });
    await waitFor(() => mailsTo(email).filter((m) => m.parsed.subject === `Your conversation with ${ACCOUNT}`).length === 1);
  });

  it('an expired link sends nothing (410)', async () => {
    const email = 'late@example.org';
    const v = await visitorWith(email);
    expect((await visitorCall(t, widget.widget_id, v.token, 'transcript', {})).json().result).toBe('confirmation_sent');
    const [mail] = await waitFor(() => (mailsTo(email).length >= 1 ? mailsTo(email) : null));
    await t.app.ctx.db
      .updateTable('transcript_mails')
      .set({ expires_at: Date.now() - 1 })
      .where('visitor_id', '=', v.visitorId)
      .execute();
    const res = await t.app.inject({
      method: 'POST',
      url: linkOf(mail.parsed.text ?? ''),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(res.statusCode).toBe(410);
    expect((await rowsTo(email)).map((r) => r.event_type)).toEqual(['mail.transcript_confirmation']);
  });

  it('caps transcripts per visitor and all such mails per account, per day', async () => {
    const email = 'often@example.org';
    const v = await visitorWith(email);
    await t.app.ctx.db.updateTable('visitors').set({ transcript_email: email }).where('id', '=', v.visitorId).execute();
    const account = await t.app.ctx.db.selectFrom('visitors').select('account_id').where('id', '=', v.visitorId).executeTakeFirstOrThrow();
    const row = (kind: 'transcript' | 'confirmation', visitorId: number) => ({
      account_id: account.account_id,
      visitor_id: visitorId,
      chat_id: v.chatId,
      kind,
      email,
      lang: 'en',
      token_hash: null,
      expires_at: null,
      used_at: null,
      created_at: Date.now() - 60_000,
    });
    await t.app.ctx.db
      .insertInto('transcript_mails')
      .values(Array.from({ length: TRANSCRIPTS_PER_VISITOR_DAY }, () => row('transcript', v.visitorId)))
      .execute();
    const capped = await visitorCall(t, widget.widget_id, v.token, 'transcript', {});
    expect(capped.statusCode).toBe(429);
    expect(await rowsTo(email)).toEqual([]);

    // The account's share: a fresh visitor's confirmation is refused too.
    const rest =
      MAILS_PER_ACCOUNT_DAY -
      (
        await t.app.ctx.db
          .selectFrom('transcript_mails')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    for (let i = 0; i < rest; i += 100) {
      await t.app.ctx.db
        .insertInto('transcript_mails')
        .values(Array.from({ length: Math.min(100, rest - i) }, () => row('confirmation', v.visitorId)))
        .execute();
    }
    const fresh = await visitorWith('fresh@example.org');
    const refused = await visitorCall(t, widget.widget_id, fresh.token, 'transcript', {});
    expect(refused.statusCode).toBe(429);
    expect(await rowsTo('fresh@example.org')).toEqual([]);
    await t.app.ctx.db.deleteFrom('transcript_mails').where('visitor_id', '=', v.visitorId).execute();
  });

  it('an address the page signed with the identity secret is proved; an unsigned or badly signed one is not', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/channels',
      headers: bearer(t.adminToken),
      payload: { type: 'widget', name: 'Verified', identity_verification: true },
    });
    const verified = res.json<TestWidget & { identity_secret: string }>();
    const sign = (email: string) => crypto.createHmac('sha256', verified.identity_secret).update(email).digest('hex');

    const s = await startSession(t, verified.widget_id);
    const email = 'signed@example.org';
    await sendText(t, verified.widget_id, s.visitor_token, 'Hello');
    expect((await visitorCall(t, verified.widget_id, s.visitor_token, 'contact', { email, email_signature: sign('other@example.org') })).statusCode).toBe(200);
    expect((await visitorCall(t, verified.widget_id, s.visitor_token, 'transcript', {})).json().result).toBe('confirmation_sent');

    const s2 = await startSession(t, verified.widget_id);
    await sendText(t, verified.widget_id, s2.visitor_token, 'Hello');
    expect((await visitorCall(t, verified.widget_id, s2.visitor_token, 'contact', { email, email_signature: sign(email) })).statusCode).toBe(200);
    expect((await visitorCall(t, verified.widget_id, s2.visitor_token, 'transcript', {})).json().result).toBe('ok');

    // Without identity verification a signature proves nothing (anyone could compute it with no secret).
    const plain = await startSession(t, widget.widget_id);
    await sendText(t, widget.widget_id, plain.visitor_token, 'Hello');
    const unsignedEmail = 'plain@example.org';
    await visitorCall(t, widget.widget_id, plain.visitor_token, 'contact', { email: unsignedEmail, email_signature: sign(unsignedEmail) });
    expect((await visitorCall(t, widget.widget_id, plain.visitor_token, 'transcript', {})).json().result).toBe('confirmation_sent');
  });
});
