import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../test/helpers/chatChannel.js';
import { allRelayed, emit, listen, rawEvent, seedAgent, seedChat, StreamClient, streamUrl } from '../../test/helpers/realtime.js';
import { bearer, createTestApp, freshStore, type TestApp, type TestStore } from '../../test/helpers/testApp.js';
import type { StreamEvent } from './hub.js';
import { RedisHub } from './redisHub.js';
import { RedisPresence } from './redisPresence.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const uniquePrefix = () => `parley-test:{${crypto.randomBytes(6).toString('hex')}}:`;

const event = (id: number, accountId = 1): StreamEvent =>
  rawEvent({
    id,
    account_id: accountId,
    type: 'message.created',
    chat_id: 7,
    channel_id: 3,
    seq: id,
    data: { n: id },
    created_at: 0,
  });

describe('RedisHub', () => {
  it('delivers what one instance publishes to the subscribers of another, per account and deployment', async () => {
    const prefix = uniquePrefix();
    const [a, b, elsewhere] = await Promise.all([
      RedisHub.open(REDIS_URL, prefix, log),
      RedisHub.open(REDIS_URL, prefix, log),
      RedisHub.open(REDIS_URL, uniquePrefix(), log),
    ]);
    try {
      const got: number[] = [];
      const foreign: number[] = [];
      const sub = b.subscribe(1, (e) => got.push(e.id));
      const other = elsewhere.subscribe(1, (e) => foreign.push(e.id));
      await Promise.all([sub.ready, other.ready]);
      for (let id = 1; id <= 5; id++) await a.publish(event(id));
      await a.publish(event(99, 2));
      const deadline = Date.now() + 2000;
      while (got.length < 5 && Date.now() < deadline) await sleep(10);
      expect(got).toEqual([1, 2, 3, 4, 5]);
      sub();
      await a.publish(event(6));
      await sleep(100);
      expect(got).toHaveLength(5);
      expect(foreign).toEqual([]);
      other();
    } finally {
      await Promise.all([a.close(), b.close(), elsewhere.close()]);
    }
  });

  it('logs and resolves when Redis is unreachable instead of failing the relay', async () => {
    const hub = await RedisHub.open('redis://127.0.0.1:1', uniquePrefix(), log, 200);
    await expect(hub.publish(event(1))).resolves.toBeUndefined();
    await hub.close();
  });
});

describe('RedisPresence', () => {
  const open = (prefix: string, graceMs: number, ttlMs?: number) => RedisPresence.open(REDIS_URL, prefix, log, { graceMs, ttlMs });

  it('does not call an agent gone while another instance holds a socket; then exactly one instance claims it', async () => {
    const prefix = uniquePrefix();
    const [a, b] = await Promise.all([open(prefix, 300), open(prefix, 300)]);
    const agent = { accountId: 1, agentId: 42 };
    try {
      a.opened(agent);
      b.opened(agent);
      await sleep(50);
      a.closed(agent);
      await sleep(500);
      expect([...(await a.claimGone()), ...(await b.claimGone())]).toEqual([]);
      b.closed(agent);
      await sleep(500);
      const claims = await Promise.all([a.claimGone(), b.claimGone(), a.claimGone()]);
      expect(claims.flat()).toEqual([agent]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('claims the agents of a crashed instance once its entries lapse', async () => {
    const prefix = uniquePrefix();
    const survivor = await open(prefix, 200);
    const connection = new Redis(REDIS_URL);
    await new Promise((resolve) => connection.once('ready', resolve));
    const crashed = new RedisPresence(connection, prefix, log, { graceMs: 200, ttlMs: 400 });
    const agent = { accountId: 1, agentId: 7 };
    try {
      crashed.opened(agent);
      await sleep(50);
      connection.disconnect(); // a crash: no release, no more heartbeats
      await sleep(250);
      expect(await survivor.claimGone()).toEqual([]);
      await sleep(500);
      expect(await survivor.claimGone()).toEqual([agent]);
    } finally {
      await Promise.all([survivor.close(), crashed.close()]);
    }
  });
});

describe('two instances on one store with REDIS_URL', () => {
  let store: TestStore;
  let a: TestApp;
  let b: TestApp;
  let baseB: string;
  let baseA: string;

  beforeAll(async () => {
    store = freshStore();
    const env = { REDIS_URL, PRESENCE_GRACE_SECONDS: '1' };
    a = await createTestApp({ store, env });
    b = await createTestApp({ store, env });
    baseA = await listen(a.app);
    baseB = await listen(b.app);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store.cleanup();
  });

  it('an event committed on one instance reaches a socket on the other', async () => {
    const chat = await seedChat(a.app);
    const agent = await seedAgent(a.app);
    const client = await StreamClient.ready(streamUrl(baseB, agent.token));
    try {
      const first = await emit(a.app, chat, 'message.created', { n: 1 });
      const second = await emit(a.app, chat, 'message.updated', { n: 2 });
      await client.until((c) => c.events().length === 2);
      expect(client.events().map((f) => [f.type, f.cursor])).toEqual([
        ['message.created', first.id],
        ['message.updated', second.id],
      ]);
    } finally {
      await client.close();
    }
  });

  it("a channel change made through one instance changes at once what the other's open streams show", async () => {
    const agent = await addAgent(a, { email: 'follows@example.com' });
    const colleague = await addAgent(a, { email: 'stays@example.com' });
    const home = await createChatChannel(a, { name: 'home', agent_ids: [agent.id, colleague.id] });
    let n = 0;
    const visitorSays = async (channel: ChatChannel): Promise<string> => {
      const text = `across ${++n}`;
      expect((await postInbound(a, channel, textMessage(`across-${n}`, text))).statusCode).toBe(200);
      return text;
    };
    const setAgents = async (channel: ChatChannel, agentIds: number[]) => {
      const res = await a.app.inject({
        method: 'PATCH',
        url: `/api/v1/channels/${channel.id}`,
        headers: bearer(a.adminToken),
        payload: { agent_ids: agentIds },
      });
      expect(res.statusCode).toBe(200);
    };
    const texts = (c: StreamClient) => c.events().flatMap((f) => (f.type === 'message.created' ? [(f.data.message as { text?: unknown }).text] : []));
    await allRelayed(a.app); // the channel made above is no live frame of the stream
    const client = await StreamClient.ready(streamUrl(baseB, agent.token));
    try {
      // The stream on B has read its channel rule (a message of a channel the agent works arrived).
      const primed = await visitorSays(home);
      await client.until((c) => texts(c).includes(primed));

      // A channel created on A with the agent among its agents.
      const created = await createChatChannel(a, { name: 'new', agent_ids: [agent.id] });
      const first = await visitorSays(created);
      await client.until((c) => texts(c).includes(first));

      // The agent added on A to a channel it did not work.
      const theirs = await createChatChannel(a, { name: 'theirs', agent_ids: [colleague.id] });
      const hidden = await visitorSays(theirs);
      const shown = await visitorSays(home);
      await client.until((c) => texts(c).includes(shown));
      await setAgents(theirs, [colleague.id, agent.id]);
      const added = await visitorSays(theirs);
      await client.until((c) => texts(c).includes(added));
      expect(texts(client)).not.toContain(hidden);

      // The agent removed on A: nothing more of that channel on B.
      await setAgents(created, [colleague.id]);
      const removed = await visitorSays(created);
      const marker = await visitorSays(home);
      await client.until((c) => texts(c).includes(marker));
      expect(texts(client)).not.toContain(removed);
      expect(
        client
          .events()
          .filter((f) => f.type === 'channel.changed')
          .map((f) => [f.data.channel_id, f.data.change]),
      ).toEqual([
        [created.id, 'created'],
        [theirs.id, 'updated'],
        [created.id, 'updated'],
      ]);
    } finally {
      await client.close();
    }
  });

  it('keeps an agent online while a socket stays open on another instance', async () => {
    const agent = await seedAgent(a.app, { status: 'online' });
    const status = async () => (await a.app.ctx.db.selectFrom('agents').select('status').where('id', '=', agent.id).executeTakeFirstOrThrow()).status;
    const onA = await StreamClient.ready(streamUrl(baseA, agent.token));
    const onB = await StreamClient.ready(streamUrl(baseB, agent.token));
    await onA.close();
    await sleep(2200);
    expect(await status()).toBe('online');
    await onB.close();
    const deadline = Date.now() + 5000;
    while ((await status()) !== 'offline' && Date.now() < deadline) await sleep(100);
    expect(await status()).toBe('offline');
    const updates = await a.app.ctx.db.selectFrom('events').select('data_json').where('type', '=', 'agent.updated').execute();
    expect(updates.filter((u) => JSON.parse(u.data_json).agent?.id === agent.id)).toHaveLength(1);
  });
});
