/**
 * One rule for a chat another agent holds (#15 item 9, docs/SECURITY.md §9,
 * domain/chats/chatRights.ts), tested per action through the API: writing to
 * the visitor, typing, finishing, blacklisting, transferring and binding to
 * the CRM card are the holder's and administrators' (403 forbidden for anyone
 * else, nothing changed); a private note is any agent's who sees the chat; a
 * chat nobody holds is open to every agent who sees it; an agent who does not
 * work the channel gets 404 for all of them. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, rowsOf } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

interface Agent {
  id: number;
  token: string;
}

type Action = 'post' | 'typing' | 'finish' | 'blacklist' | 'transfer' | 'assign';
const ACTIONS: Action[] = ['post', 'typing', 'finish', 'blacklist', 'transfer', 'assign'];

describe('who may act on a chat another agent holds', () => {
  let t: TestApp;
  let open: ChatChannel;
  let aliceOnly: ChatChannel;
  let alice: Agent;
  let bob: Agent;
  let carol: Agent;
  let admin: Agent;
  let sender = 0;

  const api = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

  /** The request of each action; `transfer` hands the chat to Carol. */
  const act = (action: Action, chatId: number, token: string) => {
    switch (action) {
      case 'post':
        return api('POST', `/chats/${chatId}/messages`, token, { type: 'text', text: 'Hello from me' });
      case 'typing':
        return api('POST', `/chats/${chatId}/typing`, token, { typing: true });
      case 'finish':
        return api('POST', `/chats/${chatId}/finish`, token, {});
      case 'blacklist':
        return api('POST', `/chats/${chatId}/finish`, token, { blacklist: true });
      case 'transfer':
        return api('POST', `/chats/${chatId}/transfer`, token, { agent_id: carol.id });
      case 'assign':
        return api('POST', `/chats/${chatId}/assign`, token);
    }
  };
  /** A new chat on a channel with a CRM link (so assign can succeed); with `holder`, accepted by that agent. */
  const newChat = async (channel: ChatChannel, holder?: Agent): Promise<number> => {
    sender += 1;
    await postInbound(t, channel, textMessage(`rights-${sender}`, 'Hello', { name: `Visitor ${sender}` }));
    const db = t.app.ctx.db;
    const visitor = await db.selectFrom('visitors').select('id').where('external_id', '=', `rights-${sender}`).executeTakeFirstOrThrow();
    const chat = await db.selectFrom('chats').select('id').where('visitor_id', '=', visitor.id).executeTakeFirstOrThrow();
    await db.updateTable('chats').set({ crm_link: 'https://crm.example.com/card/1' }).where('id', '=', chat.id).execute();
    if (holder) expect((await api('POST', `/chats/${chat.id}/accept`, holder.token)).statusCode).toBe(200);
    return chat.id;
  };
  const eventIds = async () => (await t.app.ctx.db.selectFrom('events').select('id').orderBy('id').execute()).map((e) => e.id);
  const snapshot = async () => [await rowsOf(t, 'chats'), await rowsOf(t, 'messages'), await rowsOf(t, 'visitors'), await eventIds()];

  beforeAll(async () => {
    // No workers: nothing in the background changes a row between a snapshot and the next.
    t = await createTestApp({ workers: false });
    alice = await addAgent(t, { email: 'alice@example.com', name: 'Alice' });
    bob = await addAgent(t, { email: 'bob@example.com', name: 'Bob' });
    carol = await addAgent(t, { email: 'carol@example.com', name: 'Carol' });
    admin = { id: (await api('GET', '/me', t.adminToken)).json().id as number, token: t.adminToken };
    open = await createChatChannel(t, { name: 'Everyone', agent_ids: [] });
    aliceOnly = await createChatChannel(t, { name: 'Alice only', agent_ids: [alice.id] });
  });
  afterAll(async () => {
    await t.close();
  });

  for (const action of ACTIONS) {
    it(`${action}: another agent who sees the chat gets 403 and nothing changes`, async () => {
      const chatId = await newChat(open, alice);
      const before = await snapshot();
      const res = await act(action, chatId, bob.token);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
      expect(res.json().error.message).toMatch(/^Another agent holds this chat; only they or an administrator may /);
      expect(await snapshot()).toEqual(before);
    });

    it(`${action}: the holder may`, async () => {
      const chatId = await newChat(open, alice);
      expect((await act(action, chatId, alice.token)).statusCode).toBeLessThan(300);
    });

    it(`${action}: an administrator may`, async () => {
      const chatId = await newChat(open, alice);
      expect((await act(action, chatId, admin.token)).statusCode).toBeLessThan(300);
    });

    it(`${action}: any agent who sees a chat nobody holds (pending) may`, async () => {
      const chatId = await newChat(open);
      expect((await act(action, chatId, bob.token)).statusCode).toBeLessThan(300);
    });

    it(`${action}: an agent who does not work the channel gets 404, even for a chat nobody holds`, async () => {
      const chatId = await newChat(aliceOnly);
      const before = await snapshot();
      const res = await act(action, chatId, bob.token);
      expect(res.statusCode).toBe(404);
      expect(await snapshot()).toEqual(before);
    });
  }

  it('a private note is any agent’s who sees the chat, and does not take it', async () => {
    const chatId = await newChat(open, alice);
    const res = await api('POST', `/chats/${chatId}/messages`, bob.token, { type: 'text', text: 'Try a restart', internal: true });
    expect(res.statusCode).toBe(201);
    const chat = (await api('GET', `/chats/${chatId}`, alice.token)).json();
    expect(chat.accepted_by).toBe(alice.id);
    expect(chat.agent_ids).not.toContain(bob.id);
    // Not to a chat of a channel Bob does not work.
    const hidden = await newChat(aliceOnly, alice);
    expect((await api('POST', `/chats/${hidden}/messages`, bob.token, { type: 'text', text: 'x', internal: true })).statusCode).toBe(404);
  });

  it('a finished chat stays its last holder’s: only they or an administrator blacklist its visitor', async () => {
    const chatId = await newChat(open, alice);
    expect((await act('finish', chatId, alice.token)).statusCode).toBe(200);
    expect((await act('blacklist', chatId, bob.token)).statusCode).toBe(403);
    expect((await api('GET', `/chats/${chatId}`, alice.token)).json().blacklisted).toBe(false);
    const res = await act('blacklist', chatId, alice.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().blacklisted).toBe(true);
  });

  it('after a transfer the rule follows the new holder: the one who handed it over is refused', async () => {
    const chatId = await newChat(open, alice);
    expect((await api('POST', `/chats/${chatId}/transfer`, alice.token, { agent_id: bob.id })).statusCode).toBe(200);
    expect((await act('post', chatId, alice.token)).statusCode).toBe(403);
    expect((await act('post', chatId, bob.token)).statusCode).toBe(201);
  });
});
