/**
 * GET /api/v1/me/channels (#20): every agent gets the channels whose chats it
 * sees, by the chat lists' rule (assigned to it, or to nobody; all of the
 * account for an administrator), as {id, type, name} only: never another
 * account's channel, nor a channel's secrets, URLs or agents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

describe('GET /api/v1/me/channels', () => {
  let t: TestApp;
  let ann: { id: number; token: string };
  let ben: { id: number; token: string };
  let annOnly: ChatChannel;
  let benOnly: ChatChannel;
  let everyone: ChatChannel;
  let widgetId: number;

  const get = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/me/channels', headers: bearer(token) });
  const names = async (token: string): Promise<string[]> => {
    const res = await get(token);
    expect(res.statusCode).toBe(200);
    return res.json<Array<{ name: string }>>().map((c) => c.name);
  };

  beforeAll(async () => {
    t = await createTestApp();
    ann = await addAgent(t, { email: 'ann@example.com', name: 'Ann' });
    ben = await addAgent(t, { email: 'ben@example.com', name: 'Ben' });
    annOnly = await createChatChannel(t, { agent_ids: [ann.id], name: 'Ann app' });
    benOnly = await createChatChannel(t, { agent_ids: [ben.id], name: 'Ben app' });
    everyone = await createChatChannel(t, { agent_ids: [], name: 'Shared app' });
    const widget = await t.app.inject({
      method: 'POST',
      url: '/api/v1/channels',
      headers: bearer(t.adminToken),
      payload: { type: 'widget', name: 'Website', agent_ids: [ben.id] },
    });
    expect(widget.statusCode).toBe(201);
    widgetId = widget.json().id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the channels the agent is assigned to and those assigned to nobody, by name', async () => {
    expect(await names(ann.token)).toEqual(['Ann app', 'Shared app']);
    expect(await names(ben.token)).toEqual(['Ben app', 'Shared app', 'Website']);
    expect(await names(t.adminToken)).toEqual(['Ann app', 'Ben app', 'Shared app', 'Website']);
  });

  it('shows id, type and name only', async () => {
    const list = (await get(ben.token)).json<Array<Record<string, unknown>>>();
    expect(list).toEqual([
      { id: benOnly.id, type: 'chat_api', name: 'Ben app' },
      { id: everyone.id, type: 'chat_api', name: 'Shared app' },
      { id: widgetId, type: 'widget', name: 'Website' },
    ]);
  });

  it('follows a change of the channel’s agents at once', async () => {
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/channels/${benOnly.id}`,
      headers: bearer(t.adminToken),
      payload: { agent_ids: [ann.id, ben.id] },
    });
    expect(patch.statusCode).toBe(200);
    expect(await names(ann.token)).toEqual(['Ann app', 'Ben app', 'Shared app']);
    const back = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/channels/${benOnly.id}`,
      headers: bearer(t.adminToken),
      payload: { agent_ids: [ben.id] },
    });
    expect(back.statusCode).toBe(200);
    expect(await names(ann.token)).toEqual(['Ann app', 'Shared app']);
  });

  it('lists the same channels the chat lists show chats of', async () => {
    for (const [channel, sender] of [
      [annOnly, 'v-ann'],
      [benOnly, 'v-ben'],
      [everyone, 'v-all'],
    ] as const)
      expect((await postInbound(t, channel, textMessage(sender, 'hello', { name: sender }))).statusCode).toBe(200);
    for (const agent of [ann, ben]) {
      const chats = (await t.app.inject({ method: 'GET', url: '/api/v1/chats?status=pending', headers: bearer(agent.token) })).json<
        Array<{ channel_id: number }>
      >();
      const seen = new Set((await get(agent.token)).json<Array<{ id: number }>>().map((c) => c.id));
      expect(chats.length).toBeGreaterThan(0);
      for (const chat of chats) expect(seen.has(chat.channel_id)).toBe(true);
    }
  });

  it('never lists another account’s channels, and needs a signed-in agent', async () => {
    const other = await createOtherAccount(t);
    expect(await names(other.token)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/channels' })).statusCode).toBe(401);
  });
});
