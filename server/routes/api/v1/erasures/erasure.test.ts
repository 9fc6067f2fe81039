/**
 * Erasure, proven (#33, docs/DATA.md "Erasure"): a chat-channel visitor and a
 * widget visitor write unique markers everywhere Parley keeps them (details,
 * messages, an agent's reply, an upload, a callback call, an offline message,
 * event webhooks, notification mails), DELETE /api/v1/visitors/:id erases
 * them in the background (202, progress on GET /api/v1/erasures/:id), and
 * then no byte of any file under DATA_DIR (SQLite: database, WAL, uploads)
 * holds a marker, or no row of any table of the schema (PostgreSQL). Another
 * visitor's marker stays, so the scan sees what is there. The same senders
 * come back as new visitors; agents get 403; visitor_erased is sent.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, testDialect, type TestApp } from '../../../../../test/helpers/testApp.js';
import { createWidget, startSession, visitorCall, type TestWidget } from '../../../../../test/helpers/widget.js';

const mark = (what: string) => `${what}${crypto.randomBytes(6).toString('hex')}`;
const digits = () => String(crypto.randomInt(1_000_000, 9_999_999));

const M = {
  senderName: mark('Sendername'),
  senderEmail: `${mark('sendermail')}@example.com`,
  senderPhone: `+1555${digits()}`,
  senderText: mark('sendertext'),
  agentReply: mark('agentreply'),
  widgetName: mark('Widgetname'),
  widgetEmail: `${mark('widgetmail')}@example.org`,
  widgetPhone: `+1444${digits()}`,
  widgetText: mark('widgettext'),
  fileBytes: mark('filebytes'),
  offlineText: mark('offlinetext'),
  callPhone: `+1333${digits()}`,
};
const KEEP = mark('keepme');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are read loosely here
type Loose = any;
type Api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token?: string) => Promise<{ statusCode: number; json: () => Loose }>;

describe('erasing a visitor everywhere', () => {
  let t: TestApp;
  let api: Api;
  let channel: ChatChannel;
  let widget: TestWidget;
  let customer: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  const webhooks: string[] = [];
  let events: Awaited<ReturnType<typeof startCustomerEndpoint>>;

  beforeAll(async () => {
    t = await createTestApp();
    api = (method, url, payload, token = t.adminToken) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
    customer = await startCustomerEndpoint();
    events = await startCustomerEndpoint((req) => {
      webhooks.push(req.body);
      return { status: 200 };
    });
    const settings = await api('PUT', '/settings', {
      event_webhook_url: `${events.url}/events`,
      event_webhook_types: { chat_started: true, visitor_erased: true },
      callback: { enabled: true, balance_seconds: 3600 },
    });
    expect(settings.statusCode, JSON.stringify(settings.json())).toBe(200);
    channel = await createChatChannel(t, { webhook_url: `${customer.url}/hook` });
    widget = await createWidget(t);
  });
  afterAll(async () => {
    await customer.close();
    await events.close();
    await t.close();
  });

  /** Every marker found in a file under DATA_DIR (byte level: SQLite's database and WAL, uploads) or, on PostgreSQL, in any row of the schema. */
  async function markersLeft(markers: string[]): Promise<string[]> {
    const found = new Set<string>();
    {
      const walk = (dir: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          const file = path.join(dir, entry.name);
          if (entry.isDirectory()) walk(file);
          else {
            const bytes = fs.readFileSync(file);
            for (const m of markers) if (bytes.includes(Buffer.from(m)) || bytes.includes(Buffer.from(m.toLowerCase()))) found.add(`${m} in ${entry.name}`);
          }
        }
      };
      walk(t.config.dataDir);
    }
    if (testDialect() === 'sqlite') return [...found];
    const db = t.app.ctx.db;
    const { rows: tables } = await sql<{
      table_name: string;
    }>`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
    for (const { table_name } of tables) {
      const { rows } = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(db);
      for (const { row } of rows) for (const m of markers) if (row.toLowerCase().includes(m.toLowerCase())) found.add(`${m} in ${table_name}`);
    }
    return [...found];
  }

  it('erases both visitors in the background and leaves no marker behind', async () => {
    // The chat-channel visitor: details and messages through the endpoint, an agent's reply.
    const sender = { name: M.senderName, email: M.senderEmail, phone: M.senderPhone };
    expect((await postInbound(t, channel, textMessage('sender-erase-1', `hello ${M.senderText}`, sender))).statusCode).toBe(200);
    expect((await postInbound(t, channel, textMessage('sender-keep-1', `hello ${KEEP}`, { name: 'Kept Person' }))).statusCode).toBe(200);
    const senderVisitor = await t.app.ctx.db.selectFrom('visitors').selectAll().where('external_id', '=', 'sender-erase-1').executeTakeFirstOrThrow();
    const senderChat = await t.app.ctx.db.selectFrom('chats').selectAll().where('visitor_id', '=', senderVisitor.id).executeTakeFirstOrThrow();
    expect((await api('POST', `/chats/${senderChat.id}/accept`, {})).statusCode).toBe(200);
    expect((await api('POST', `/chats/${senderChat.id}/messages`, { type: 'text', text: `reply ${M.agentReply}` })).statusCode).toBe(201);
    await waitFor(() => customer.requests.some((r) => r.body.includes(M.agentReply)));

    // The widget visitor: contact details, a message, an uploaded file, a callback call, an offline message.
    const s = await startSession(t, widget.widget_id);
    const token = s.visitor_token;
    expect((await visitorCall(t, widget.widget_id, token, 'contact', { name: M.widgetName, email: M.widgetEmail, phone: M.widgetPhone })).statusCode).toBe(200);
    expect((await visitorCall(t, widget.widget_id, token, 'messages', { type: 'text', text: `hi ${M.widgetText}` })).statusCode).toBe(201);
    const up = await t.app.inject({
      method: 'POST',
      url: `/widget/api/${widget.widget_id}/uploads`,
      headers: { ...bearer(token), 'content-type': 'text/plain', 'x-file-name': 'note.txt', 'x-forwarded-for': '198.51.100.9' },
      payload: Buffer.from(`file ${M.fileBytes}\n`),
    });
    expect(up.statusCode, up.body).toBe(200);
    expect((await visitorCall(t, widget.widget_id, token, 'messages', up.json())).statusCode).toBe(201);
    expect((await visitorCall(t, widget.widget_id, token, 'callback', { phone: M.callPhone })).json()).toMatchObject({ result: 'ok' });
    expect(
      (await visitorCall(t, widget.widget_id, token, 'offline', { name: M.widgetName, email: M.widgetEmail, message: `left ${M.offlineText}` })).statusCode,
    ).toBe(200);
    const widgetVisitor = await t.app.ctx.db
      .selectFrom('visitors')
      .selectAll()
      .where('token_hash', 'is not', null)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

    // Webhooks and mails about them were written (and sent).
    await waitFor(
      async () => (await t.app.ctx.db.selectFrom('deliveries').select('id').where('event_type', '=', 'mail.offline_message').executeTakeFirst()) ?? null,
    );
    await waitFor(() => webhooks.some((b) => b.includes(M.offlineText)));
    await waitFor(() => webhooks.some((b) => b.includes(M.callPhone)));
    const all = Object.values(M);
    const before = new Set((await markersLeft(all)).map((f) => f.split(' ')[0]));
    expect(all.filter((m) => !before.has(m))).toEqual([]);

    // Agents may not erase; administrators get 202 and a job.
    expect((await api('DELETE', `/visitors/${senderVisitor.id}`)).statusCode).toBe(202);
    const second = await api('DELETE', `/visitors/${widgetVisitor.id}`);
    expect(second.statusCode).toBe(202);
    const job = second.json().erasure;
    expect(job).toMatchObject({ visitor_id: widgetVisitor.id, visitor_number: widgetVisitor.number });
    const done = await waitFor(async () => {
      const res = await api('GET', `/erasures/${job.id}`);
      return res.json().erasure.status === 'done' ? res.json().erasure : null;
    });
    expect(done).toMatchObject({ chats_total: 1, chats_erased: 1, messages_erased: done.messages_total, files_erased: 1 });
    await waitFor(async () => (await t.app.ctx.db.selectFrom('erasures').select('id').where('status', '=', 'running').executeTakeFirst()) === undefined);
    await waitFor(() => webhooks.some((b) => b.includes('"visitor_erased"') && b.includes('sender-erase-1')));
    const erased = webhooks.map((b) => JSON.parse(b)).find((b) => b.event_name === 'visitor_erased' && b.sender_id === 'sender-erase-1');
    expect(erased).toMatchObject({ visitor_number: String(senderVisitor.number), user_token: null });

    expect(await t.app.ctx.db.selectFrom('visitors').select('id').where('id', 'in', [senderVisitor.id, widgetVisitor.id]).execute()).toEqual([]);
    expect(await markersLeft(all)).toEqual([]);
    expect(await markersLeft([KEEP])).not.toEqual([]);

    // The same sender starts a new visitor; the old widget token names nobody.
    expect((await postInbound(t, channel, textMessage('sender-erase-1', 'back again'))).statusCode).toBe(200);
    const back = await t.app.ctx.db.selectFrom('visitors').selectAll().where('external_id', '=', 'sender-erase-1').executeTakeFirstOrThrow();
    expect(back.id).not.toBe(senderVisitor.id);
    expect(back.name).toBeNull();
    const again = await startSession(t, widget.widget_id, { token });
    expect(again.visitor_token).not.toBe(token);
  }, 60_000);

  it('is for administrators: agents 403, unknown visitors 404', async () => {
    const created = await api('POST', '/agents', { name: 'Ag', email: 'ag-erase@example.com', password: 'agent-password-1', role: 'agent' });
    expect(created.statusCode).toBe(201);
    const agentToken = await t.login('ag-erase@example.com', 'agent-password-1');
    expect((await postInbound(t, channel, textMessage('sender-erase-2', 'x'))).statusCode).toBe(200);
    const v = await t.app.ctx.db.selectFrom('visitors').select('id').where('external_id', '=', 'sender-erase-2').executeTakeFirstOrThrow();
    const refused = await api('DELETE', `/visitors/${v.id}`, undefined, agentToken);
    expect(refused.statusCode).toBe(403);
    expect(await t.app.ctx.db.selectFrom('visitors').select('id').where('id', '=', v.id).executeTakeFirst()).toBeDefined();
    expect((await api('DELETE', '/visitors/999999')).statusCode).toBe(404);
    expect((await api('DELETE', '/visitors/abc')).statusCode).toBe(404);
    expect((await api('GET', '/erasures/999999')).statusCode).toBe(404);
  });
});
