/**
 * POST /api/v1/chats/:id/transfer: the chat goes to another agent (accepted by
 * them, agent_ids gains them, a system message, chat.updated 'transferred');
 * who may transfer, which targets are refused (400), finished chats (409),
 * and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount, rowsOf } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

interface Agent {
  id: number;
  token: string;
}

describe('POST /api/v1/chats/:id/transfer', () => {
  let t: TestApp;
  let open: ChatChannel;
  let restricted: ChatChannel;
  let alice: Agent;
  let bob: Agent;
  let carol: Agent;
  let adminId: number;
  let sender = 0;

  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, token = t.adminToken, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const transfer = (chatId: number, agentId: unknown, token: string) => api('POST', `/chats/${chatId}/transfer`, token, { agent_id: agentId });
  /** A new pending chat on a channel; with `holder`, accepted by that agent. */
  const newChat = async (channel: ChatChannel, holder?: Agent): Promise<number> => {
    sender += 1;
    const name = `Visitor ${sender}`;
    await postInbound(t, channel, textMessage(`tr-${sender}`, 'Hello', { name }));
    const list = (await api('GET', '/chats?status=pending')).json();
    const id = list.find((c: { visitor: { name: string } }) => c.visitor.name === name).id as number;
    if (holder) expect((await api('POST', `/chats/${id}/accept`, holder.token)).statusCode).toBe(200);
    return id;
  };
  // Events are compared by id: the relay marks rows relayed in the background.
  const eventIds = async () => (await t.app.ctx.db.selectFrom('events').select('id').orderBy('id').execute()).map((e) => e.id);
  const snapshot = async () => [await rowsOf(t, 'chats'), await rowsOf(t, 'messages'), await eventIds()];
  const eventsOf = (chatId: number) => t.app.ctx.db.selectFrom('events').selectAll().where('chat_id', '=', chatId).orderBy('id', 'asc').execute();

  beforeAll(async () => {
    t = await createTestApp();
    alice = await addAgent(t, { email: 'alice@example.com', name: 'Alice' });
    bob = await addAgent(t, { email: 'bob@example.com', name: 'Bob' });
    carol = await addAgent(t, { email: 'carol@example.com', name: 'Carol' });
    adminId = (await api('GET', '/me')).json().id;
    open = await createChatChannel(t, { name: 'Open', agent_ids: [] });
    restricted = await createChatChannel(t, { name: 'Alice only', agent_ids: [alice.id] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('hands an active chat to another agent: accepted by them, agent_ids gains them, a system message and chat.updated', async () => {
    const chatId = await newChat(open, alice);
    const res = await transfer(chatId, bob.id, alice.token);
    expect(res.statusCode).toBe(200);
    const chat = res.json();
    expect(chat).toMatchObject({ id: chatId, status: 'active', accepted_by: bob.id, agent_ids: [alice.id, bob.id] });
    const last = chat.messages.at(-1);
    expect(last).toEqual({
      id: expect.any(Number),
      chat_id: chatId,
      author: 'system',
      type: 'text',
      text: 'Transferred from Alice to Bob',
      created_at: expect.any(Number),
    });

    const events = await eventsOf(chatId);
    const [updated, created] = events.slice(-2).map((e) => ({ type: e.type, data: JSON.parse(e.data_json) }));
    expect(updated).toMatchObject({
      type: 'chat.updated',
      data: { change: 'transferred', agent_id: alice.id, chat: { accepted_by: bob.id, agent_ids: [alice.id, bob.id] } },
    });
    expect(created).toMatchObject({ type: 'message.created', data: { message: { author: 'system', text: 'Transferred from Alice to Bob' } } });

    // The chat is Bob's now: he writes in it; Alice still reads it but may not move it again.
    expect((await api('POST', `/chats/${chatId}/messages`, bob.token, { type: 'text', text: 'Bob here' })).statusCode).toBe(201);
    expect((await api('GET', `/chats/${chatId}`, alice.token)).statusCode).toBe(200);
    const again = await transfer(chatId, carol.id, alice.token);
    expect(again.statusCode).toBe(403);
    expect(again.json().error).toEqual({ code: 'forbidden', message: expect.stringMatching(/holds this chat; only they or an administrator/) });
    // Bob can hand it back; Alice stays in agent_ids once.
    expect((await transfer(chatId, alice.id, bob.token)).json()).toMatchObject({ accepted_by: alice.id, agent_ids: [alice.id, bob.id] });
  });

  it('assigns a waiting chat directly (any agent who sees it may), named after who moved it', async () => {
    const chatId = await newChat(open);
    const res = await transfer(chatId, bob.id, carol.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'active', accepted_by: bob.id, agent_ids: [bob.id], accepted_at: expect.any(Number) });
    expect(res.json().messages.at(-1)).toMatchObject({ author: 'system', text: 'Transferred from Carol to Bob' });
  });

  it('lets an administrator move a chat another agent holds', async () => {
    const chatId = await newChat(open, alice);
    expect((await transfer(chatId, carol.id, t.adminToken)).json()).toMatchObject({ accepted_by: carol.id, agent_ids: [alice.id, carol.id] });
  });

  it('refuses unsuitable targets with a 400 sentence and stores nothing', async () => {
    const chatId = await newChat(restricted, alice);
    const other = await createOtherAccount(t);
    const dave = await addAgent(t, { email: 'dave@example.com', name: 'Dave' });
    expect((await api('PATCH', `/agents/${dave.id}`, t.adminToken, { active: false })).statusCode).toBe(200);
    const before = await snapshot();
    for (const [agentId, message] of [
      [999999, /agent_id must name an agent of this account; 999999/],
      [other.adminId, /must name an agent of this account/],
      [dave.id, /Dave is deactivated/],
      [bob.id, /Bob does not work this chat's channel/],
      [alice.id, /already with Alice/],
      ['7', /agent_id must be integer/],
      [0, /agent_id/],
      [null, /agent_id/],
    ] as const) {
      const res = await transfer(chatId, agentId, alice.token);
      expect(res.statusCode, String(agentId)).toBe(400);
      expect(res.json().error).toEqual({ code: 'validation_failed', message: expect.stringMatching(message) });
    }
    expect((await api('POST', `/chats/${chatId}/transfer`, alice.token, {})).statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
    // An administrator works every channel, so may take it.
    expect((await transfer(chatId, adminId, alice.token)).json()).toMatchObject({ accepted_by: adminId });
  });

  it('answers 409 for a finished chat', async () => {
    const chatId = await newChat(open, alice);
    expect((await api('POST', `/chats/${chatId}/finish`, alice.token, {})).statusCode).toBe(200);
    const before = await snapshot();
    const res = await transfer(chatId, bob.id, alice.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('chat_finished');
    expect(await snapshot()).toEqual(before);
  });

  it('keeps accounts and channels apart: 404 for a chat the caller cannot see', async () => {
    const chatId = await newChat(restricted, alice);
    const other = await createOtherAccount(t, 'transfer-boss@other.example');
    const before = await snapshot();
    expect((await transfer(chatId, other.adminId, other.token)).statusCode).toBe(404);
    expect((await transfer(chatId, bob.id, bob.token)).statusCode).toBe(404);
    expect((await transfer(999999, bob.id, alice.token)).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('two transfers at once: exactly one wins', async () => {
    const chatId = await newChat(open, alice);
    const results = await Promise.all([transfer(chatId, bob.id, alice.token), transfer(chatId, carol.id, alice.token)]);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const chat = (await api('GET', `/chats/${chatId}`)).json();
    expect(chat.messages.filter((m: { author: string }) => m.author === 'system')).toHaveLength(1);
  });
});
