/**
 * GET /api/v1/visitors/:id/chats: a visitor's chats, newest first, as list
 * rows; 404 for a visitor of a channel the agent does not work or of another
 * account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

describe('a visitor’s chats', () => {
  let t: TestApp;
  let channel: ChatChannel;
  const get = (url: string, token = t.adminToken) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(token) });

  beforeAll(async () => {
    t = await createTestApp();
    channel = await createChatChannel(t, { agent_ids: [] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists them newest first with their last message', async () => {
    await postInbound(t, channel, textMessage('again-1', 'my first question', { name: 'Returning Rose' }));
    const first = (await get('/chats?status=pending')).json()[0];
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/chats/${first.id}/finish`, headers: bearer(t.adminToken), payload: {} })).statusCode).toBe(200);
    await postInbound(t, channel, textMessage('again-1', 'back with another question', { name: 'Returning Rose' }));
    const res = await get(`/visitors/${first.visitor.id}/chats`);
    expect(res.statusCode).toBe(200);
    const rows = res.json();
    expect(rows.map((c: { status: string }) => c.status)).toEqual(['pending', 'finished']);
    expect(rows[1]).toMatchObject({ id: first.id, last_message: { text: 'my first question' } });
    expect(rows[0].last_message.text).toBe('back with another question');
    const page = (await get(`/visitors/${first.visitor.id}/chats?limit=1&before=${rows[0].id}`)).json();
    expect(page.map((c: { id: number }) => c.id)).toEqual([first.id]);
  });

  it('answers 404 for a visitor the agent may not see, and for unknown ids', async () => {
    const hidden = await createChatChannel(t, { agent_ids: [(await addAgent(t, { email: 'owner@example.com' })).id], name: 'Hidden' });
    await postInbound(t, hidden, textMessage('hid-1', 'secret', { name: 'Hidden Hugo' }));
    const row = (await get('/chats?status=pending')).json().find((c: { visitor: { name: string } }) => c.visitor.name === 'Hidden Hugo');
    const outsider = await addAgent(t, { email: 'outsider@example.com' });
    expect((await get(`/visitors/${row.visitor.id}/chats`, outsider.token)).statusCode).toBe(404);
    const other = await createOtherAccount(t);
    expect((await get(`/visitors/${row.visitor.id}/chats`, other.token)).statusCode).toBe(404);
    expect((await get('/visitors/99999999/chats')).statusCode).toBe(404);
    expect((await get('/visitors/abc/chats')).statusCode).toBe(404);
    expect((await get(`/visitors/${row.visitor.id}/chats?limit=5000`)).statusCode).toBe(400);
  });
});
