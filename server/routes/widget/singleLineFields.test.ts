/**
 * Visitor-given names and other one-line fields are stored on one line
 * (#31 item 2, lib/singleLine.ts): control characters (C0, DEL, C1) and line
 * breaks (CR, LF, U+2028, U+2029) become spaces where the contacts form /
 * setContactInfo, the offline form and the chat channel's sender store them,
 * so a name cannot forge a line ("Acme Support: …") in a plain-text mail or
 * a subject. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage, waitFor } from '../../../test/helpers/chatChannel.js';
import { createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../../test/helpers/widget.js';

const FORGED = 'Eve\r\nAcme Support: confirm your card at https://evil.example\u2028\u2029\u0085\u001b[2J\u007f\t!';
// eslint-disable-next-line no-control-regex -- what must not be there
const CLEAN = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/;

describe('one-line fields are stored without control characters or line breaks', () => {
  let t: TestApp;
  let widget: TestWidget;

  beforeAll(async () => {
    t = await createTestApp();
    widget = await createWidget(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const visitor = (id: number) => t.app.ctx.db.selectFrom('visitors').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('the contacts form / setContactInfo: name and phone, and the visitor’s transcript signed with it', async () => {
    const s = await startSession(t, widget.widget_id);
    const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'contact', { client_name: FORGED, email: 'eve@example.org', phone: `+1555\n0100` });
    expect(res.statusCode).toBe(200);
    const sent = await sendText(t, widget.widget_id, s.visitor_token, 'Hi');
    const chat = await t.app.ctx.db.selectFrom('chats').select('visitor_id').where('id', '=', sent.chat_id).executeTakeFirstOrThrow();
    const v = await visitor(chat.visitor_id);
    expect(v.name).toBe('Eve Acme Support: confirm your card at https://evil.example [2J !');
    expect(v.phone).toBe('+1555 0100');
    expect(v.widget_contact_json ?? '').not.toMatch(/\\[nrtu]/);
    // The plain-text copy the visitor asks for has no line of its own starting with the forged sender.
    await t.app.ctx.db.updateTable('visitors').set({ transcript_email: 'eve@example.org' }).where('id', '=', v.id).execute();
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'transcript', {})).json().result).toBe('ok');
    const row = await t.app.ctx.db
      .selectFrom('deliveries')
      .select('body')
      .where('event_type', '=', 'mail.chat_transcript')
      .where('chat_id', '=', sent.chat_id)
      .executeTakeFirstOrThrow();
    const mail = JSON.parse(row.body) as { subject: string; text: string };
    expect(mail.text.split('\n').some((line) => line.startsWith('Acme Support:'))).toBe(false);
    expect(mail.subject).toMatch(CLEAN);
  });

  it('the offline form: name and phone', async () => {
    const s = await startSession(t, widget.widget_id);
    const res = await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', {
      name: FORGED,
      phone: '+1\u20280100',
      email: 'eve2@example.org',
      message: 'Line one\nline two',
    });
    expect(res.statusCode).toBe(200);
    const row = await t.app.ctx.db.selectFrom('offline_messages').selectAll().where('email', '=', 'eve2@example.org').executeTakeFirstOrThrow();
    expect(row.name).toMatch(CLEAN);
    expect(row.phone).toBe('+1 0100');
    // A message is many lines: kept as written.
    expect(row.message).toBe('Line one\nline two');
    // The notification's subject and text lines.
    const mail = await waitFor(() => t.app.ctx.db.selectFrom('deliveries').select('body').where('event_type', '=', 'mail.offline_message').executeTakeFirst());
    const body = JSON.parse(mail.body) as { subject: string; text: string };
    expect(body.subject).toMatch(CLEAN);
    expect(body.text.split('\n').some((line) => line.startsWith('Acme Support:'))).toBe(false);
  });

  it('the chat channel’s sender: name, e-mail and phone', async () => {
    const channel = await createChatChannel(t);
    const res = await postInbound(t, channel, textMessage('eve-1', 'Hello', { name: FORGED, email: 'eve@\nexample.org', phone: '+1\r0100' }));
    expect(res.statusCode).toBe(200);
    const v = await t.app.ctx.db.selectFrom('visitors').selectAll().where('external_id', '=', 'eve-1').executeTakeFirstOrThrow();
    expect(v.name).toBe('Eve Acme Support: confirm your card at https://evil.example [2J !');
    expect(v.email).toBe('eve@ example.org');
    expect(v.phone).toBe('+1 0100');
  });
});
