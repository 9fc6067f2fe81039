import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { createOtherAccount } from '../../../../../test/helpers/accounts.js';

describe('agent chat API with a chat-channel customer endpoint', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let endpoint: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let agentToken: string;
  let agentId: number;
  let answer: (n: number) => { status?: number; body?: string } = () => ({ status: 200, body: '{"result":"ok"}' });

  const api = (method: 'GET' | 'POST', url: string, token = t.adminToken, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const newChat = async (senderId: string | number, name: string) => {
    await postInbound(t, channel, textMessage(senderId, `hello from ${name}`, { name }));
    const list = (await api('GET', '/chats?status=pending')).json();
    return list.find((c: { visitor: { name: string } }) => c.visitor.name === name);
  };

  beforeAll(async () => {
    t = await createTestApp();
    endpoint = await startCustomerEndpoint((_req, n) => answer(n));
    const created = await api('POST', '/agents', t.adminToken, { name: 'Bob Agent', email: 'bob@example.com', password: 'bob-password-1', role: 'agent' });
    agentId = created.json().id;
    agentToken = await t.login('bob@example.com', 'bob-password-1');
    channel = await createChatChannel(t, { webhook_url: `${endpoint.url}/in?c=`, agent_ids: [] });
  });
  afterAll(async () => {
    await t.close();
    await endpoint.close();
  });

  it('lists pending chats and shows the detail with messages', async () => {
    const chat = await newChat('list-1', 'Lister');
    expect(chat).toMatchObject({ status: 'pending', channel_id: channel.id, agent_ids: [] });
    expect(chat.messages).toBeUndefined();
    const detail = (await api('GET', `/chats/${chat.id}`)).json();
    expect(detail).toMatchObject({ id: chat.id, status: 'pending', custom_data: [], contact_info: null, crm_link: null, enable_assign: false });
    expect(detail.messages).toHaveLength(1);
    expect((await api('GET', '/chats/999999')).statusCode).toBe(404);
    expect((await api('GET', '/chats/abc')).statusCode).toBe(404);
    expect((await api('GET', '/chats?status=open')).statusCode).toBe(400);
  });

  it('accept makes the chat active; a second agent gets 409', async () => {
    const chat = await newChat('acc-1', 'Accepter');
    const res = await api('POST', `/chats/${chat.id}/accept`, agentToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'active', agent_ids: [agentId] });
    expect((await api('POST', `/chats/${chat.id}/accept`, agentToken)).statusCode).toBe(200);
    const lost = await api('POST', `/chats/${chat.id}/accept`, t.adminToken);
    expect(lost.statusCode).toBe(409);
    expect(lost.json().error.code).toBe('chat_already_accepted');
  });

  it('two agents pressing Reply at once: exactly one wins', async () => {
    const chat = await newChat('race-1', 'Racer');
    const results = await Promise.all([api('POST', `/chats/${chat.id}/accept`, agentToken), api('POST', `/chats/${chat.id}/accept`, t.adminToken)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('delivers the agent reply to {webhook_url}/<CHANNEL_PUBLIC_ID> as the spec outbound message', async () => {
    const chat = await newChat(7001, 'Numeric');
    const sent = await api('POST', `/chats/${chat.id}/messages`, agentToken, { type: 'text', text: 'How can I help?' });
    expect(sent.statusCode).toBe(201);
    const message = sent.json();
    expect(message).toMatchObject({ author: 'agent', agent_id: agentId, type: 'text', text: 'How can I help?', delivery: { status: 'pending' } });
    const req = await waitFor(() => endpoint.requests.find((r) => JSON.parse(r.body).message?.id === String(message.id)));
    expect(req.method).toBe('POST');
    expect(req.url).toBe(`/in?c=/${channel.public_id}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['content-length']).toBe(String(Buffer.byteLength(req.body)));
    expect(JSON.parse(req.body)).toEqual({
      sender: { name: 'Bob Agent' },
      recipient: { id: 7001 },
      message: { type: 'text', id: String(message.id), text: 'How can I help?' },
    });
    await waitFor(async () =>
      (await api('GET', `/chats/${chat.id}`))
        .json()
        .messages.find((m: { id: number; delivery?: { status: string } }) => m.id === message.id && m.delivery?.status === 'delivered'),
    );
    // Writing in a pending chat accepted it.
    expect((await api('GET', `/chats/${chat.id}`)).json().status).toBe('active');
  });

  it('returns a string sender.id as a string and sends typing with recipient.id', async () => {
    const chat = await newChat('str-7', 'Stringy');
    expect((await api('POST', `/chats/${chat.id}/typing`, agentToken, { typing: true })).statusCode).toBe(204);
    const typing = await waitFor(() => endpoint.requests.find((r) => JSON.parse(r.body).recipient?.id === 'str-7'));
    expect(JSON.parse(typing.body)).toMatchObject({ recipient: { id: 'str-7' }, message: { type: 'typein' } });
    expect((await api('POST', `/chats/${chat.id}/typing`, agentToken, { typing: 'yes' })).statusCode).toBe(400);
  });

  it('sends multimedia replies and refuses broken ones with 400', async () => {
    const chat = await newChat('media-1', 'MediaFan');
    const photo = await api('POST', `/chats/${chat.id}/messages`, agentToken, {
      type: 'photo',
      file: 'https://cdn.example.com/a.png',
      file_name: 'a.png',
      file_size: 10,
    });
    expect(photo.statusCode).toBe(201);
    expect(photo.json()).toMatchObject({ type: 'photo', file: 'https://cdn.example.com/a.png', file_name: 'a.png', file_size: 10 });
    for (const bad of [{ type: 'photo' }, { type: 'text' }, { type: 'text', text: 5 }, { type: 'fax', text: 'x' }, { type: 'typein' }, {}]) {
      const res = await api('POST', `/chats/${chat.id}/messages`, agentToken, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect((await api('GET', `/chats/${chat.id}`)).json().messages).toHaveLength(2);
  });

  it('records a refusal of the customer endpoint as the message delivery error', async () => {
    answer = () => ({ status: 200, body: '{"error":{"code":12,"message":"User blocked the bot"}}' });
    try {
      const chat = await newChat('ref-1', 'Refuser');
      const message = (await api('POST', `/chats/${chat.id}/messages`, agentToken, { type: 'text', text: 'hi' })).json();
      const failed = await waitFor(async () =>
        (await api('GET', `/chats/${chat.id}`))
          .json()
          .messages.find((m: { id: number; delivery?: { status: string } }) => m.id === message.id && m.delivery?.status === 'failed'),
      );
      expect(failed.delivery).toEqual({ status: 'failed', error: 'User blocked the bot' });
    } finally {
      answer = () => ({ status: 200, body: '{"result":"ok"}' });
    }
  });

  it('finish closes the chat; the next visitor message opens a new chat', async () => {
    const chat = await newChat('fin-1', 'Finisher');
    const res = await api('POST', `/chats/${chat.id}/finish`, agentToken, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'finished', blacklisted: false });
    const noBody = await t.app.inject({ method: 'POST', url: `/api/v1/chats/${chat.id}/finish`, headers: bearer(agentToken) });
    expect(noBody.statusCode).toBe(200);
    expect((await api('POST', `/chats/${chat.id}/messages`, agentToken, { type: 'text', text: 'late' })).statusCode).toBe(409);
    await postInbound(t, channel, textMessage('fin-1', 'me again', { name: 'Finisher' }));
    const all = (await api('GET', '/chats')).json().filter((c: { visitor: { name: string } }) => c.visitor.name === 'Finisher');
    expect(all.map((c: { status: string }) => c.status)).toEqual(['pending', 'finished']);
    expect(all[0].visitor.chats_count).toBe(2);
  });

  it('a blacklisted visitor is stored but never reaches agents', async () => {
    const chat = await newChat('black-1', 'Spammer');
    expect((await api('POST', `/chats/${chat.id}/finish`, agentToken, { blacklist: true })).json()).toMatchObject({
      blacklisted: true,
      visitor: { blacklisted: true },
    });
    const res = await postInbound(t, channel, textMessage('black-1', 'spam again', { name: 'Spammer' }));
    expect(res.statusCode).toBe(200);
    const chats = (await api('GET', '/chats')).json().filter((c: { visitor: { name: string } }) => c.visitor.name === 'Spammer');
    expect(chats).toHaveLength(1);
    expect((await api('GET', `/chats/${chat.id}`)).json().messages.map((m: { text: string }) => m.text)).toEqual(['hello from Spammer']);
    const stored = await t.app.ctx.db.selectFrom('messages').select(['text', 'suppressed']).where('chat_id', '=', chat.id).execute();
    expect(stored).toContainEqual({ text: 'spam again', suppressed: 1 });
  });

  it('searches the archive by visitor name, e-mail or message text (?q=)', async () => {
    await postInbound(t, channel, textMessage('q-1', 'My parcel 50%_off never came', { name: 'Quentin Search', email: 'QUENTIN@example.org' }));
    const ids = async (q: string) => (await api('GET', `/chats?q=${encodeURIComponent(q)}`)).json().map((c: { visitor: { name: string } }) => c.visitor.name);
    expect(await ids('quentin')).toEqual(['Quentin Search']);
    expect(await ids('quentin@EXAMPLE')).toEqual(['Quentin Search']);
    expect(await ids('PARCEL')).toEqual(['Quentin Search']);
    expect(await ids('50%_off')).toEqual(['Quentin Search']);
    expect(await ids('%')).not.toContain('Lister');
    expect(await ids('no such words anywhere')).toEqual([]);
  });

  it('assign needs a CRM link', async () => {
    const chat = await newChat('asg-1', 'Assignee');
    const res = await api('POST', `/chats/${chat.id}/assign`, agentToken);
    expect(res.statusCode).toBe(409);
  });

  it('an agent of another account sees none of these chats', async () => {
    const eve = (await createOtherAccount(t, 'eve@other.example')).token;
    expect((await api('GET', '/chats', eve)).json()).toEqual([]);
    const someChat = (await api('GET', '/chats')).json()[0];
    expect((await api('GET', `/chats/${someChat.id}`, eve)).statusCode).toBe(404);
    expect((await api('POST', `/chats/${someChat.id}/accept`, eve)).statusCode).toBe(404);
  });
});
