/**
 * The visitor's messages and socket, on a real listening app with a ws
 * client: the first message opens a chat agents see; agent replies, typing,
 * accept reach the visitor; replay after a disconnect delivers each missed
 * frame exactly once; other visitors' events and private notes never show.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allRelayed, liveApp, StreamClient } from '../../../test/helpers/realtime.js';
import { bearer } from '../../../test/helpers/testApp.js';
import { addAgent, createOtherAccount } from '../../../test/helpers/accounts.js';
import { agentReply, createWidget, sendText, setStatus, startSession, visitorCall, visitorSocketUrl, type TestWidget } from '../../../test/helpers/widget.js';

describe('visitor socket', () => {
  const srv = liveApp();
  let widget: TestWidget;
  const open = async (token: string, cursor?: number, widgetId = widget.widget_id): Promise<StreamClient> => {
    const c = await StreamClient.ready(visitorSocketUrl(srv.base, widgetId, token, cursor));
    srv.clients.push(c);
    return c;
  };

  beforeAll(async () => {
    widget = await createWidget(srv.t);
  });

  it('closes with 4401 for a bad token; 404s an unknown widget before the upgrade', async () => {
    const bad = await StreamClient.open(visitorSocketUrl(srv.base, widget.widget_id, 'nope'));
    expect(await bad.waitClosed()).toMatchObject({ code: 4401, reason: expect.stringMatching(/unauthorized/) });
    await expect(StreamClient.open(visitorSocketUrl(srv.base, 'nosuchwidget', 'nope'))).rejects.toThrow(/404/);
  });

  it('opens a chat with the first message (invite, department); agents see it; later messages join it', async () => {
    const dep = await srv.t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(srv.t.adminToken), payload: { name: 'Sales' } });
    const s = await startSession(srv.t, widget.widget_id);
    const first = await sendText(srv.t, widget.widget_id, s.visitor_token, 'Hi!', { invite: 'Need help choosing?', department_id: dep.json().id });
    const second = await sendText(srv.t, widget.widget_id, s.visitor_token, 'Anyone?');
    expect(second.chat_id).toBe(first.chat_id);
    const list = await srv.t.app.inject({ method: 'GET', url: '/api/v1/chats?status=pending', headers: bearer(srv.t.adminToken) });
    const chat = list.json().find((c: { id: number }) => c.id === first.chat_id);
    expect(chat).toMatchObject({
      status: 'pending',
      channel_id: widget.id,
      department_id: dep.json().id,
      visitor: { number: s.visitor.number, invite: 'Need help choosing?' },
    });
    const detail = await srv.t.app.inject({ method: 'GET', url: `/api/v1/chats/${first.chat_id}`, headers: bearer(srv.t.adminToken) });
    expect(detail.json().messages.map((m: { text: string; author: string }) => [m.author, m.text])).toEqual([
      ['visitor', 'Hi!'],
      ['visitor', 'Anyone?'],
    ]);
  });

  it('drops a department id that names no department, also one past the largest id (found by the fuzzer: a 500 on PostgreSQL)', async () => {
    for (const department_id of [999_999, 2_147_483_648, Number.MAX_SAFE_INTEGER]) {
      const s = await startSession(srv.t, widget.widget_id);
      const sent = await sendText(srv.t, widget.widget_id, s.visitor_token, 'Hello', { department_id });
      const detail = await srv.t.app.inject({ method: 'GET', url: `/api/v1/chats/${sent.chat_id}`, headers: bearer(srv.t.adminToken) });
      expect(detail.json().department_id).toBeNull();
    }
  });

  it('refuses bad messages: no text, typing types, files that are not our uploads', async () => {
    const s = await startSession(srv.t, widget.widget_id);
    for (const body of [{ type: 'text' }, { type: 'typein' }, { type: 'bogus', text: 'x' }, { type: 'photo', file: 'https://evil.example/x.png' }]) {
      const res = await visitorCall(srv.t, widget.widget_id, s.visitor_token, 'messages', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect((await visitorCall(srv.t, widget.widget_id, 'bad-token', 'messages', { type: 'text', text: 'x' })).statusCode).toBe(401);
  });

  it('delivers accept (agent name and photo, no e-mail), agent replies and agent typing; never private notes', async () => {
    const s = await startSession(srv.t, widget.widget_id);
    const { chat_id: chatId } = await sendText(srv.t, widget.widget_id, s.visitor_token, 'Hello');
    const client = await open(s.visitor_token, s.cursor);
    await srv.t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/accept`, headers: bearer(srv.t.adminToken) });
    await srv.t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/typing`, headers: bearer(srv.t.adminToken), payload: { typing: true } });
    await srv.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chatId}/messages`,
      headers: bearer(srv.t.adminToken),
      payload: { type: 'text', text: 'secret note', internal: true },
    });
    await agentReply(srv.t, chatId, 'How can I help?');
    await client.until((c) =>
      c.events().some((f) => f.type === 'message.created' && f.data.message && (f.data.message as { author: string }).author === 'agent'),
    );
    const types = client.events().map((f) => f.type);
    // The session's cursor is from before the first message: the chat's creation and that message are replayed.
    expect(types).toEqual(['chat.updated', 'message.created', 'chat.updated', 'typing', 'message.created']);
    const [created, mine, accepted, typing, reply] = client.events();
    expect(created.data.chat).toEqual({ id: chatId, status: 'pending', agent: null, rate: null });
    expect(mine.data.message).toMatchObject({ author: 'visitor', text: 'Hello', chat_id: chatId });
    expect(accepted.data.chat).toEqual({ id: chatId, status: 'active', agent: { id: expect.any(Number), name: expect.any(String), photo: null }, rate: null });
    expect(typing.data).toMatchObject({ chat_id: chatId, typing: true, agent: { id: expect.any(Number) } });
    expect(reply.data.message).toMatchObject({ author: 'agent', text: 'How can I help?', agent: { name: expect.any(String) } });
    const all = JSON.stringify(client.frames);
    expect(all).not.toContain('secret note');
    expect(all).not.toContain('@'); // no e-mail of anyone
    for (const f of client.events()) expect(f.cursor).toEqual(expect.any(Number));
  });

  it('tells agents when the visitor types (and never echoes it to the visitor)', async () => {
    const agentSocket = await StreamClient.ready(`${srv.base}/api/v1/stream?token=${srv.t.adminToken}`);
    srv.clients.push(agentSocket);
    const s = await startSession(srv.t, widget.widget_id);
    const { chat_id: chatId } = await sendText(srv.t, widget.widget_id, s.visitor_token, 'typing test');
    const client = await open(s.visitor_token, s.cursor);
    expect((await visitorCall(srv.t, widget.widget_id, s.visitor_token, 'typing', { typing: true })).statusCode).toBe(204);
    expect((await visitorCall(srv.t, widget.widget_id, s.visitor_token, 'typing', { typing: 'yes' })).statusCode).toBe(400);
    await agentSocket.until((c) => c.events().some((f) => f.type === 'typing' && f.chat_id === chatId));
    expect(agentSocket.events().find((f) => f.type === 'typing' && f.chat_id === chatId)?.data).toMatchObject({ author: 'visitor', typing: true });
    await allRelayed(srv.t.app);
    expect(client.events().filter((f) => f.type === 'typing')).toEqual([]);
  });

  it('replays what was missed while disconnected, each frame exactly once', async () => {
    const s = await startSession(srv.t, widget.widget_id);
    const { chat_id: chatId } = await sendText(srv.t, widget.widget_id, s.visitor_token, 'before');
    const first = await open(s.visitor_token, s.cursor);
    await first.until((c) => c.events().length === 2); // chat opened, 'before'
    const cursor = first.lastCursor();
    await first.close();
    for (const text of ['one', 'two', 'three']) await agentReply(srv.t, chatId, text);
    await allRelayed(srv.t.app);
    const again = await open(s.visitor_token, cursor);
    await agentReply(srv.t, chatId, 'four');
    await again.until((c) => c.events().filter((f) => f.type === 'message.created').length === 4);
    await allRelayed(srv.t.app);
    await new Promise((r) => setTimeout(r, 100));
    const texts = again
      .events()
      .filter((f) => f.type === 'message.created')
      .map((f) => (f.data.message as { text: string }).text);
    expect(texts).toEqual(['one', 'two', 'three', 'four']);
    const cursors = again.events().map((f) => f.cursor as number);
    expect(new Set(cursors).size).toBe(cursors.length);
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(cursors[0]).toBeGreaterThan(cursor);
  });

  it("shows a visitor nothing of other visitors' chats, other widgets or other accounts", async () => {
    const other = await createWidget(srv.t, { name: 'Second site' });
    const foreignAccount = await createOtherAccount(srv.t, 'boss@foreign.example');
    const foreign = await createWidget(srv.t, { name: 'Foreign site' }, foreignAccount.token);
    const me = await startSession(srv.t, widget.widget_id);
    const neighbour = await startSession(srv.t, widget.widget_id);
    const elsewhere = await startSession(srv.t, other.widget_id);
    const abroad = await startSession(srv.t, foreign.widget_id);
    const client = await open(me.visitor_token, me.cursor);
    const n = await sendText(srv.t, widget.widget_id, neighbour.visitor_token, 'neighbour text');
    const e = await sendText(srv.t, other.widget_id, elsewhere.visitor_token, 'elsewhere text');
    const f = await sendText(srv.t, foreign.widget_id, abroad.visitor_token, 'foreign text');
    await agentReply(srv.t, n.chat_id, 'to neighbour');
    await agentReply(srv.t, e.chat_id, 'to elsewhere');
    await agentReply(srv.t, f.chat_id, 'to foreign', foreignAccount.token);
    // A token is no credential on another account's widget (nor its socket).
    expect((await visitorCall(srv.t, foreign.widget_id, me.visitor_token, 'messages', { type: 'text', text: 'x' })).statusCode).toBe(401);
    const stranger = await StreamClient.open(visitorSocketUrl(srv.base, foreign.widget_id, me.visitor_token));
    expect((await stranger.waitClosed()).code).toBe(4401);
    await sendText(srv.t, widget.widget_id, me.visitor_token, 'mine');
    await client.until((c) => c.events().some((f) => (f.data.message as { text?: string } | undefined)?.text === 'mine'));
    await allRelayed(srv.t.app);
    expect(JSON.stringify(client.events())).not.toMatch(/neighbour|elsewhere|foreign/);
    expect(client.events().every((f) => f.type !== 'message.created' || (f.data.message as { text: string }).text === 'mine')).toBe(true);
  });

  it("stores a blacklisted visitor's messages suppressed: the visitor is answered as usual, agents never see them", async () => {
    const s = await startSession(srv.t, widget.widget_id);
    const { chat_id: chatId } = await sendText(srv.t, widget.widget_id, s.visitor_token, 'spam 1');
    await srv.t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/finish`, headers: bearer(srv.t.adminToken), payload: { blacklist: true } });
    const agentSocket = await StreamClient.ready(`${srv.base}/api/v1/stream?token=${srv.t.adminToken}`);
    srv.clients.push(agentSocket);
    const later = await sendText(srv.t, widget.widget_id, s.visitor_token, 'spam 2');
    expect(later.chat_id).toBe(chatId); // no new chat
    const stored = await srv.t.app.ctx.db.selectFrom('messages').selectAll().where('id', '=', later.id).executeTakeFirstOrThrow();
    expect(stored.suppressed).toBe(1);
    const detail = await srv.t.app.inject({ method: 'GET', url: `/api/v1/chats/${chatId}`, headers: bearer(srv.t.adminToken) });
    expect(detail.json().messages.map((m: { text: string }) => m.text)).toEqual(['spam 1']);
    expect((await startSession(srv.t, widget.widget_id, { token: s.visitor_token })).chat?.messages.map((m) => m.text)).toEqual(['spam 1']);
    await allRelayed(srv.t.app);
    expect(JSON.stringify(agentSocket.events())).not.toContain('spam 2');
  });

  it('sends status only when availability changes', async () => {
    const agent = await addAgent(srv.t, { email: 'status-agent@example.com' });
    const site = await createWidget(srv.t, { name: 'Status site', agent_ids: [agent.id] });
    const s = await startSession(srv.t, site.widget_id);
    expect(s.online).toBe(false);
    const client = await open(s.visitor_token, s.cursor, site.widget_id);
    expect(client.frames[0]).toMatchObject({ type: 'ready', data: { online: false } });
    await setStatus(srv.t, 'online', agent.token);
    await client.until((c) => c.events().some((f) => f.type === 'status'));
    await setStatus(srv.t, 'online'); // the admin: not this channel's agent, nothing changes
    await setStatus(srv.t, 'away', agent.token);
    await client.until((c) => c.events().filter((f) => f.type === 'status').length === 2);
    await allRelayed(srv.t.app);
    expect(
      client
        .events()
        .filter((f) => f.type === 'status')
        .map((f) => f.data.online),
    ).toEqual([true, false]);
  });
});
