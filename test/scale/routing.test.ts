/**
 * Assignment across instances, on real processes: two instances (A and B) on
 * one PostgreSQL schema and one Redis, round robin with a 5 s offer timeout,
 * three Online agents. Checked: chats created on both instances are each
 * offered once per step (the two routing workers race on every expiry; the
 * compare-and-set lets one move each offer), every step to exactly one agent;
 * and A killed (SIGKILL) while its offer is outstanding → B's worker offers
 * the chat to the next agent, who accepts it on B; the `chat_accepted` event
 * webhook is sent once. PostgreSQL only: SQLite serves one instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textMessage } from '../helpers/chatChannel.js';
import { StreamClient, streamUrl, type Frame } from '../helpers/realtime.js';
import { freshStore, testDialect, type TestStore } from '../helpers/testApp.js';
import { assertBuilt } from '../process/serverProcess.js';
import { api, ok, sleep, startInstance, startReceiver, type Instance, type Receiver } from './cluster.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { email: 'admin@routing.example', password: 'routing-admin-password' };
const PASSWORD = 'routing-agent-password';
const TIMEOUT_S = 5;

interface Agent {
  id: number;
  token: string;
}
interface Offer {
  chat_id: number;
  agent_id: number;
  attempt: number;
  previous_agent_id: number | null;
}

const offersIn = (s: StreamClient, chatId?: number): Offer[] =>
  s.frames
    .filter((f: Frame) => f.type === 'chat.offered')
    .map((f) => f.data as unknown as Offer)
    .filter((o) => chatId === undefined || o.chat_id === chatId);

if (testDialect() !== 'postgres') {
  describe('routing on two instances (PostgreSQL + Redis)', () => {
    it.skip('needs PostgreSQL: instances share one database (runs in the postgres project)', () => undefined);
  });
} else {
  describe('routing on two instances (PostgreSQL + Redis)', () => {
    let store: TestStore;
    let A: Instance;
    let B: Instance;
    let events: Receiver;
    let admin: string;
    let agents: Agent[];
    let endpoint: string;
    let watch: StreamClient;
    const sockets: StreamClient[] = [];

    const inbound = (instance: Instance, sender: string, text: string) =>
      fetch(`${instance.base}${endpoint}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(textMessage(sender, text)) });
    const chatOf = async (text: string): Promise<number> => {
      await watch.until((s) => s.frames.some((f) => f.type === 'message.created' && (f.data.message as { text?: string }).text === text), 10_000);
      return watch.frames.find((f) => f.type === 'message.created' && (f.data.message as { text?: string }).text === text)!.chat_id!;
    };

    beforeAll(async () => {
      assertBuilt();
      store = freshStore();
      events = await startReceiver();
      const env = {
        ...store.env,
        REDIS_URL,
        OUTBOUND_ALLOW_PRIVATE: '1',
        PUBLIC_URL: 'http://chat.parley.test',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      };
      [A, B] = await Promise.all([startInstance('A', env), startInstance('B', env)]);
      admin = (await ok<{ token: string }>(200, A.base, 'POST', '/api/v1/auth/login', ADMIN)).token;
      agents = [];
      for (const name of ['one', 'two', 'three']) {
        const email = `${name}@routing.example`;
        const created = await ok<{ id: number }>(201, A.base, 'POST', '/api/v1/agents', { name, email, password: PASSWORD, role: 'agent' }, admin);
        const { token } = await ok<{ token: string }>(200, B.base, 'POST', '/api/v1/auth/login', { email, password: PASSWORD });
        await ok(200, B.base, 'PUT', '/api/v1/me/status', { status: 'online' }, token);
        agents.push({ id: created.id, token });
      }
      const channel = await ok<{ endpoint_url: string }>(
        201,
        A.base,
        'POST',
        '/api/v1/channels',
        { type: 'chat_api', name: 'App', webhook_url: events.url, chunked: false, agent_ids: [] },
        admin,
      );
      endpoint = new URL(channel.endpoint_url).pathname;
      await ok(200, B.base, 'PUT', '/api/v1/settings', { event_webhook_url: events.url }, admin);
      await ok(200, A.base, 'PUT', '/api/v1/routing', { mode: 'round_robin', offer_timeout_seconds: TIMEOUT_S }, admin);
      // The admin (offline, so never offered a chat) watches everything on B.
      watch = await StreamClient.ready(streamUrl(B.ws, admin));
      sockets.push(watch);
    }, 90_000);

    afterAll(async () => {
      await Promise.all(sockets.map((s) => s.close().catch(() => undefined)));
      await Promise.all([A?.kill(), B?.kill()]);
      await events?.close();
      await store?.cleanup();
    });

    it('offers each chat once per step, to one agent, while both workers race on every expiry', async () => {
      const N = 12;
      await Promise.all(Array.from({ length: N }, (_, n) => inbound(n % 2 ? A : B, `race-${n}`, `race ${n}`)));
      const chatIds = await Promise.all(Array.from({ length: N }, (_, n) => chatOf(`race ${n}`)));
      // Each offer runs out after 5 s and moves on (on A or B); wait for two moves of each.
      await watch.until((s) => chatIds.every((id) => offersIn(s, id).length >= 3), 30_000);
      for (const id of chatIds) {
        const steps = offersIn(watch, id).slice(0, 3);
        expect(steps.map((o) => o.attempt)).toEqual([1, 2, 3]);
        // Never the agent it was just offered to, and each step names the one before.
        expect(steps[1].agent_id).not.toBe(steps[0].agent_id);
        expect(steps[1].previous_agent_id).toBe(steps[0].agent_id);
        expect(steps[2].previous_agent_id).toBe(steps[1].agent_id);
      }
      // No step twice: (chat, attempt) unique over everything the stream saw.
      const keys = offersIn(watch).map((o) => `${o.chat_id}:${o.attempt}`);
      expect(new Set(keys).size).toBe(keys.length);
      // Round robin spread the first offers over the three agents.
      const firsts = chatIds.map((id) => offersIn(watch, id)[0].agent_id);
      for (const a of agents) expect(firsts.filter((x) => x === a.id).length).toBeGreaterThan(0);
      // Everyone may still accept: exactly one of two agents pressing at once wins.
      for (const id of chatIds) {
        const [one, two] = await Promise.all([
          api(A.base, 'POST', `/api/v1/chats/${id}/accept`, undefined, agents[0].token),
          api(B.base, 'POST', `/api/v1/chats/${id}/accept`, undefined, agents[1].token),
        ]);
        expect([one.status, two.status].sort()).toEqual([200, 409]);
      }
    }, 60_000);

    it('A killed while its offer is outstanding: B offers the chat to the next agent, who accepts it; chat_accepted is sent once', async () => {
      const before = offersIn(watch).length;
      expect((await inbound(A, 'kill-visitor', 'offered by A')).status).toBe(200);
      const chatId = await chatOf('offered by A');
      await watch.until((s) => offersIn(s, chatId).length >= 1, 10_000);
      const first = offersIn(watch, chatId)[0];
      expect(first.attempt).toBe(1);
      // A dies holding the offer (and, if its worker had begun moving it, that transaction).
      await sleep(TIMEOUT_S * 1000 - 300);
      A.signal('SIGKILL');
      expect((await A.exited).signal).toBe('SIGKILL');
      await watch.until((s) => offersIn(s, chatId).length >= 2, 15_000);
      const second = offersIn(watch, chatId)[1];
      expect(second).toMatchObject({ attempt: 2, previous_agent_id: first.agent_id });
      expect(second.agent_id).not.toBe(first.agent_id);
      const taker = agents.find((a) => a.id === second.agent_id)!;
      const accepted = await ok<{ status: string; agent_ids: number[] }>(200, B.base, 'POST', `/api/v1/chats/${chatId}/accept`, undefined, taker.token);
      expect(accepted).toMatchObject({ status: 'active', agent_ids: [taker.id] });
      const acceptedHooks = () => events.requests.filter((r) => r.body.includes('"chat_accepted"') && r.body.includes(`"chat_id":${chatId}`));
      await events.until(() => acceptedHooks().length >= 1, 15_000, 'chat_accepted');
      // Accepted: no further offer, however long B's worker runs; the webhook not sent twice.
      await sleep((TIMEOUT_S + 1) * 1000);
      expect(offersIn(watch, chatId)).toHaveLength(2);
      expect(new Set(acceptedHooks().map((r) => r.webhookId)).size).toBe(1);
      expect(offersIn(watch).length - before).toBe(2);
    }, 60_000);
  });
}
