/**
 * GET /api/v1/export: the whole account as NDJSON (docs/DATA.md "Export"):
 * one `{type, data}` object per line, every kind of row, in id order, past
 * the size of one read batch, ending with `{"type":"end","lines":N}`; never a
 * password hash, token, webhook secret, channel path secret or identity
 * secret; only the caller's account; administrators only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { agentReply, createWidget, sendText, startSession, visitorCall, type TestWidget } from '../../../../../test/helpers/widget.js';
import { accountRows } from '../../../../domain/export/accountRows.js';

interface Line {
  type: string;
  data: Record<string, unknown>;
  lines?: number;
}

const parse = (body: string): Line[] =>
  body
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);

describe('GET /api/v1/export', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let widget: TestWidget;
  let agentToken: string;
  const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: Record<string, unknown>, token = t.adminToken) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
    agentToken = (await addAgent(t, { email: 'ann@example.com', name: 'Ann' })).token;
    expect((await api('POST', '/departments', { name: 'Sales' })).statusCode).toBe(201);
    expect((await api('POST', '/canned-responses', { shortcut: 'hi', title: 'Greeting', text: 'Hello, how can I help?' })).statusCode).toBe(201);
    channel = await createChatChannel(t, { name: 'Telegram bridge' });
    widget = await createWidget(t, { name: 'Shop' });
    expect((await api('PATCH', `/channels/${widget.id}`, { identity_verification: true })).statusCode).toBe(200);
    expect((await api('PUT', '/settings', { callback: { enabled: true, balance_seconds: 600 } })).statusCode).toBe(200);
    await postInbound(t, channel, textMessage('tg-1', 'where is my parcel?', { name: 'Olga', email: 'olga@example.com', phone: '+49 30 1234-5678' }));
    const chat = (await api('GET', '/chats?status=pending')).json<{ id: number }[]>()[0];
    await agentReply(t, chat.id, 'It left our warehouse today.');
    const s = await startSession(t, widget.widget_id, { ip: '8.8.4.4' });
    await sendText(t, widget.widget_id, s.visitor_token, 'do you ship to Norway?');
    expect(
      (await visitorCall(t, widget.widget_id, s.visitor_token, 'offline', { name: 'Nils', email: 'nils@example.no', message: 'call me' })).statusCode,
    ).toBe(200);
    expect((await visitorCall(t, widget.widget_id, s.visitor_token, 'callback', { phone: '+4722334455' })).json()).toMatchObject({ result: 'ok' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('streams every kind of row as {type, data} lines, then an end line counting them', async () => {
    const res = await api('GET', '/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="parley-export-\d{4}-\d\d-\d\d\.ndjson"$/);
    const lines = parse(res.body);
    const end = lines.at(-1)!;
    expect(end).toEqual({ type: 'end', lines: lines.length - 1 });
    const types = lines.slice(0, -1).map((l) => l.type);
    // The fixed order: what the rest points at first.
    const order = ['account', 'agent', 'department', 'channel', 'canned_response', 'visitor', 'chat', 'message', 'call', 'offline_message'];
    expect([...new Set(types)]).toEqual(order);
    expect(types).toEqual([...types].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    const of = (type: string) => lines.filter((l) => l.type === type).map((l) => l.data);
    expect(of('account')).toHaveLength(1);
    expect(of('agent').map((a) => a.email)).toEqual(['admin@example.com', 'ann@example.com']);
    expect(of('department')[0]).toMatchObject({ name: 'Sales' });
    expect(of('channel').map((c) => [c.type, c.name])).toEqual([
      ['chat_api', 'Telegram bridge'],
      ['widget', 'Shop'],
    ]);
    expect(of('canned_response')[0]).toMatchObject({ shortcut: 'hi', text: 'Hello, how can I help?' });
    expect(of('visitor')[0]).toMatchObject({ name: 'Olga', email: 'olga@example.com', external_id: 'tg-1', channel_id: channel.id });
    expect(of('visitor')[1].session).toMatchObject({ geoip: { country_code: 'US' } });
    expect(of('message').map((m) => m.text)).toEqual(['where is my parcel?', 'It left our warehouse today.', 'do you ship to Norway?']);
    expect(of('message').every((m) => typeof m.chat_id === 'number')).toBe(true);
    expect(of('chat')).toHaveLength(2);
    expect(of('chat')[0]).toMatchObject({ visitor_id: of('visitor')[0].id, status: 'active' });
    expect(of('call')[0]).toMatchObject({ type: 'callback', phone: '+4722334455' });
    expect(of('offline_message')[0]).toMatchObject({ name: 'Nils', message: 'call me' });
  });

  it('holds no password hash, token, webhook secret, channel path secret or identity secret', async () => {
    const body = (await api('GET', '/export')).body;
    const db = t.app.ctx.db;
    const secrets = [
      ...(await db.selectFrom('agents').select('password_hash as s').execute()),
      ...(await db.selectFrom('auth_tokens').select('token_hash as s').execute()),
      ...(await db.selectFrom('settings').select('webhook_secret as s').execute()),
      ...(await db.selectFrom('channels').select('secret as s').where('secret', 'is not', null).execute()),
      ...(await db.selectFrom('visitors').select('token_hash as s').where('token_hash', 'is not', null).execute()),
    ].map((r) => r.s!);
    const identity = (await api('GET', `/channels/${widget.id}`)).json<{ identity_secret: string }>().identity_secret;
    secrets.push(identity, t.adminToken, agentToken);
    expect(secrets.length).toBeGreaterThan(6);
    for (const secret of secrets) expect(body).not.toContain(secret);
    expect(body).not.toMatch(/password|token_hash|webhook_secret|identity_secret|endpoint_url/);
  });

  it('reads past one batch in id order, keeping nothing of another account', async () => {
    const other = await createOtherAccount(t);
    const others = await t.app.inject({
      method: 'POST',
      url: '/api/v1/channels',
      headers: bearer(other.token),
      payload: { type: 'chat_api', name: 'Theirs', webhook_url: 'https://other.example.com/hook' },
    });
    const theirs = { ...others.json(), path: new URL(others.json<{ endpoint_url: string }>().endpoint_url).pathname };
    await postInbound(t, theirs, textMessage('x', 'not yours to export'));
    for (let i = 0; i < 12; i++) await postInbound(t, channel, textMessage(`bulk-${i}`, `bulk message ${i}`));
    const all: string[] = [];
    for await (const item of accountRows(t.app.ctx.db, 1, 5)) all.push(item.type === 'message' ? (item.row.text ?? '') : item.type);
    expect(all.filter((x) => x.startsWith('bulk message'))).toEqual(Array.from({ length: 12 }, (_, i) => `bulk message ${i}`));
    expect(all).not.toContain('not yours to export');
    const mine = (await api('GET', '/export')).body;
    expect(mine).not.toContain('not yours to export');
    expect(mine).not.toContain('Theirs');
    const theirsExport = parse((await api('GET', '/export', undefined, other.token)).body);
    expect(theirsExport.filter((l) => l.type === 'message').map((l) => l.data.text)).toEqual(['not yours to export']);
  });

  it('is for administrators only', async () => {
    expect((await api('GET', '/export', undefined, agentToken)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/export' })).statusCode).toBe(401);
  });
});
