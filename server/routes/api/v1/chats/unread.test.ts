/**
 * Chat list rows (#20): each carries its last message and the signed-in
 * agent's unread count, kept on the server per agent (POST /chats/:id/read):
 * one agent reading a chat leaves another's count as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

interface Row {
  id: number;
  visitor: { name: string };
  channel_id: number;
  channel: { id: number; type: string; name: string };
  last_message: { id: number; text?: string; created_at: number } | null;
  unread_count: number;
}

describe('chat list previews and unread counts', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let a: { id: number; token: string };
  let b: { id: number; token: string };

  const api = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const rows = async (token: string, status = 'pending'): Promise<Row[]> => {
    const res = await api('GET', `/chats?status=${status}`, token);
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const rowOf = async (token: string, name: string) => (await rows(token)).find((c) => c.visitor.name === name)!;
  const say = async (sender: string, text: string, name: string) =>
    expect((await postInbound(t, channel, textMessage(sender, text, { name }))).statusCode).toBe(200);

  beforeAll(async () => {
    t = await createTestApp();
    a = await addAgent(t, { email: 'a@example.com', name: 'Ann' });
    b = await addAgent(t, { email: 'b@example.com', name: 'Ben' });
    channel = await createChatChannel(t, { agent_ids: [] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows the last message, its time, the visitor and the channel on each row', async () => {
    await say('p-1', 'first line', 'Preview Person');
    await say('p-1', 'the latest line', 'Preview Person');
    const row = await rowOf(a.token, 'Preview Person');
    expect(row.channel_id).toBe(channel.id);
    expect(row.channel).toEqual({ id: channel.id, type: 'chat_api', name: 'Support app' });
    expect(row.last_message).toMatchObject({ text: 'the latest line', author: 'visitor' });
    expect(row.last_message?.created_at).toBeTypeOf('number');
    expect(row.unread_count).toBe(2);
    // A private note is no preview; the agent's own reply is.
    expect((await api('POST', `/chats/${row.id}/accept`, a.token)).statusCode).toBe(200);
    expect((await api('POST', `/chats/${row.id}/messages`, a.token, { type: 'text', text: 'note to self', internal: true })).statusCode).toBe(201);
    const active = (await rows(a.token, 'active')).find((c) => c.id === row.id)!;
    expect(active.last_message?.text).toBe('the latest line');
    expect((await api('POST', `/chats/${row.id}/messages`, a.token, { type: 'text', text: 'Hello, how can I help?' })).statusCode).toBe(201);
    expect((await rows(a.token, 'active')).find((c) => c.id === row.id)!.last_message?.text).toBe('Hello, how can I help?');
  });

  it('keeps unread per agent: A reading does not clear B’s count', async () => {
    await say('u-1', 'one', 'Unread Person');
    await say('u-1', 'two', 'Unread Person');
    await say('u-1', 'three', 'Unread Person');
    const row = await rowOf(a.token, 'Unread Person');
    expect(row.unread_count).toBe(3);
    expect((await rowOf(b.token, 'Unread Person')).unread_count).toBe(3);

    const read = await api('POST', `/chats/${row.id}/read`, a.token);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ chat_id: row.id, last_read_message_id: row.last_message!.id });
    expect((await rowOf(a.token, 'Unread Person')).unread_count).toBe(0);
    expect((await rowOf(b.token, 'Unread Person')).unread_count).toBe(3);

    // A new message counts again for A; B now has four.
    await say('u-1', 'four', 'Unread Person');
    expect((await rowOf(a.token, 'Unread Person')).unread_count).toBe(1);
    expect((await rowOf(b.token, 'Unread Person')).unread_count).toBe(4);
  });

  it('reads up to a given message and never moves back', async () => {
    await say('r-1', 'alpha', 'Reader Person');
    await say('r-1', 'beta', 'Reader Person');
    await say('r-1', 'gamma', 'Reader Person');
    const row = await rowOf(b.token, 'Reader Person');
    const detail = (await api('GET', `/chats/${row.id}`, b.token)).json();
    const [first, second] = detail.messages as Array<{ id: number }>;
    expect((await api('POST', `/chats/${row.id}/read`, b.token, { message_id: second.id })).json().last_read_message_id).toBe(second.id);
    expect((await rowOf(b.token, 'Reader Person')).unread_count).toBe(1);
    // An older tab reading an older message changes nothing.
    expect((await api('POST', `/chats/${row.id}/read`, b.token, { message_id: first.id })).json().last_read_message_id).toBe(second.id);
    expect((await rowOf(b.token, 'Reader Person')).unread_count).toBe(1);
  });

  it('refuses a message of another chat, a bad id and a chat the agent cannot see', async () => {
    await say('x-1', 'mine', 'Other Person');
    await say('x-2', 'theirs', 'Third Person');
    const mine = await rowOf(a.token, 'Other Person');
    const theirs = await rowOf(a.token, 'Third Person');
    const wrong = await api('POST', `/chats/${mine.id}/read`, a.token, { message_id: theirs.last_message!.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('validation_failed');
    expect((await api('POST', `/chats/${mine.id}/read`, a.token, { message_id: 'x' })).statusCode).toBe(400);
    expect((await api('POST', `/chats/${mine.id}/read`, a.token, { message_id: 0 })).statusCode).toBe(400);
    expect((await api('POST', '/chats/99999999/read', a.token)).statusCode).toBe(404);
    expect((await rowOf(a.token, 'Other Person')).unread_count).toBe(1);
    // An agent of another channel does not see the chat at all.
    const other = await createChatChannel(t, { agent_ids: [b.id], name: 'B only' });
    await postInbound(t, other, textMessage('y-1', 'hidden', { name: 'Hidden Person' }));
    const hidden = (await rows(b.token)).find((c) => c.visitor.name === 'Hidden Person')!;
    expect((await api('POST', `/chats/${hidden.id}/read`, a.token)).statusCode).toBe(404);
  });
});
