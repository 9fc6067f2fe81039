import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { allRelayed, listen, StreamClient, streamUrl, type Frame } from '../../../../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

/**
 * An agent's open stream follows channel changes at once: a channel created
 * with the agent among its agents, the agent added to a channel, the agent
 * removed from one. The stream was open (and its channel rule read) before
 * the change; the visitor's next message shows whether the change took.
 */
describe('agent stream after channel changes', () => {
  let t: TestApp;
  let base: string;
  let agent: { id: number; token: string };
  let colleague: { id: number; token: string };
  let home: ChatChannel;
  const clients: StreamClient[] = [];
  let n = 0;

  const texts = (c: StreamClient): unknown[] =>
    c
      .events()
      .filter((f) => f.type === 'message.created')
      .map((f) => (f.data.message as { text?: unknown }).text);
  const channelFrames = (c: StreamClient, channelId: number): Frame[] =>
    c.events().filter((f) => f.type === 'channel.changed' && f.data.channel_id === channelId);

  /** A visitor's message in `channel`, by the chat channel; its unique text. */
  const visitorSays = async (channel: ChatChannel): Promise<string> => {
    const text = `hello ${++n}`;
    const res = await postInbound(t, channel, textMessage(`sender-${n}`, text));
    expect(res.statusCode).toBe(200);
    return text;
  };

  /** The agent's stream, open and with its channel rule read (a message of `home`, which it works, arrived). */
  const openPrimed = async (token: string): Promise<StreamClient> => {
    await allRelayed(t.app); // what came before is not replayed live to it
    const c = await StreamClient.ready(streamUrl(base, token));
    clients.push(c);
    const text = await visitorSays(home);
    await c.until((s) => texts(s).includes(text));
    return c;
  };

  const updateAgents = async (channel: ChatChannel, agentIds: number[]): Promise<void> => {
    const res = await t.app.inject({ method: 'PATCH', url: `/api/v1/channels/${channel.id}`, headers: bearer(t.adminToken), payload: { agent_ids: agentIds } });
    expect(res.statusCode).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
    agent = await addAgent(t, { email: 'watcher@example.com' });
    colleague = await addAgent(t, { email: 'colleague@example.com' });
    home = await createChatChannel(t, { name: 'home', agent_ids: [agent.id, colleague.id] });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });

  it('a channel created with the agent among its agents: its chats reach the stream at once', async () => {
    const stream = await openPrimed(agent.token);
    const admin = await openPrimed(t.adminToken);
    const created = await createChatChannel(t, { name: 'new', agent_ids: [agent.id] });
    const text = await visitorSays(created);
    await stream.until((s) => texts(s).includes(text));
    await admin.until((s) => texts(s).includes(text));
    // The change itself is a frame: the agent's app reloads what it shows.
    expect(channelFrames(stream, created.id).map((f) => f.data.change)).toEqual(['created']);
    expect(channelFrames(admin, created.id).map((f) => f.data.change)).toEqual(['created']);
  });

  it('the agent added to an existing channel: its chats reach the stream at once', async () => {
    const channel = await createChatChannel(t, { name: 'theirs', agent_ids: [colleague.id] });
    const stream = await openPrimed(agent.token);
    const before = await visitorSays(channel);
    const marker = await visitorSays(home);
    await stream.until((s) => texts(s).includes(marker));
    expect(texts(stream)).not.toContain(before);

    await updateAgents(channel, [colleague.id, agent.id]);
    const after = await visitorSays(channel);
    await stream.until((s) => texts(s).includes(after));
    expect(channelFrames(stream, channel.id).map((f) => f.data.change)).toEqual(['updated']);
  });

  it('the agent removed from a channel: its chats stop reaching the stream at once (a colleague who stays gets them)', async () => {
    const channel = await createChatChannel(t, { name: 'shared', agent_ids: [agent.id, colleague.id] });
    const stream = await openPrimed(agent.token);
    const stays = await openPrimed(colleague.token);
    const before = await visitorSays(channel);
    await stream.until((s) => texts(s).includes(before));

    await updateAgents(channel, [colleague.id]);
    const after = await visitorSays(channel);
    const marker = await visitorSays(home);
    await stream.until((s) => texts(s).includes(marker));
    await stays.until((s) => texts(s).includes(marker));
    expect(texts(stream)).not.toContain(after);
    expect(texts(stays)).toContain(after);
    // The removed agent is told (its app drops the channel's chats); so is the one who stays.
    expect(channelFrames(stream, channel.id).map((f) => f.data.change)).toEqual(['updated']);
    expect(channelFrames(stays, channel.id).map((f) => f.data.change)).toEqual(['updated']);
  });

  it('never names a channel to an agent who neither worked it nor works it now', async () => {
    const stream = await openPrimed(agent.token);
    const channel = await createChatChannel(t, { name: 'elsewhere', agent_ids: [colleague.id] });
    await updateAgents(channel, [colleague.id]);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/channels/${channel.id}`, headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(204);
    const marker = await visitorSays(home);
    await stream.until((s) => texts(s).includes(marker));
    expect(channelFrames(stream, channel.id)).toEqual([]);
  });

  it('a channel that loses its last assigned agent becomes everyone’s, and one that gains its first is no longer', async () => {
    const channel = await createChatChannel(t, { name: 'everyone', agent_ids: [] });
    const stream = await openPrimed(agent.token);
    const open = await visitorSays(channel);
    await stream.until((s) => texts(s).includes(open));

    await updateAgents(channel, [colleague.id]);
    const restricted = await visitorSays(channel);
    const marker = await visitorSays(home);
    await stream.until((s) => texts(s).includes(marker));
    expect(texts(stream)).not.toContain(restricted);

    await updateAgents(channel, []);
    const reopened = await visitorSays(channel);
    await stream.until((s) => texts(s).includes(reopened));
  });
});
