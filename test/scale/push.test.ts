/**
 * Web Push on two instances, on real processes: A and B on one PostgreSQL
 * schema and one Redis, started at once. Checked: they agree on one VAPID key
 * (made by whichever first start wrote it); chats created on both instances,
 * and visitor messages in a chat held by an agent, reach each subscribed
 * device exactly once, whichever instance received them and whichever
 * deliverer sent them (the relay writes one `web_push` row per device, the
 * deliverers share the rows with SKIP LOCKED); every push verified and
 * decrypted by the test push service. PostgreSQL only: SQLite serves one
 * instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textMessage, waitFor } from '../helpers/chatChannel.js';
import { startPushService, type TestPushService, type TestSubscription } from '../helpers/pushService.js';
import { freshStore, testDialect, type TestStore } from '../helpers/testApp.js';
import { assertBuilt } from '../process/serverProcess.js';
import { ok, startInstance, type Instance } from './cluster.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { email: 'admin@push.example', password: 'push-admin-password' };
const PASSWORD = 'push-agent-password';

if (testDialect() !== 'postgres') {
  describe('Web Push on two instances (PostgreSQL + Redis)', () => {
    it.skip('needs PostgreSQL: instances share one database (runs in the postgres project)', () => undefined);
  });
} else {
  describe('Web Push on two instances (PostgreSQL + Redis)', () => {
    let store: TestStore;
    let A: Instance;
    let B: Instance;
    let push: TestPushService;
    let admin: string;
    let agent: { id: number; token: string };
    let endpoint: string;
    let vapidKey = '';
    const devices: TestSubscription[] = [];

    const inbound = (instance: Instance, sender: string, text: string) =>
      fetch(`${instance.base}${endpoint}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(textMessage(sender, text)),
      });

    beforeAll(async () => {
      assertBuilt();
      store = freshStore();
      push = await startPushService(() => vapidKey);
      const env = {
        ...store.env,
        REDIS_URL,
        OUTBOUND_ALLOW_PRIVATE: '1',
        PUBLIC_URL: 'https://chat.parley.test',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      };
      [A, B] = await Promise.all([startInstance('A', env), startInstance('B', env)]);
      admin = (await ok<{ token: string }>(200, A.base, 'POST', '/api/v1/auth/login', ADMIN)).token;
      const created = await ok<{ id: number }>(
        201,
        A.base,
        'POST',
        '/api/v1/agents',
        { name: 'Pat', email: 'pat@push.example', password: PASSWORD, role: 'agent' },
        admin,
      );
      const { token } = await ok<{ token: string }>(200, B.base, 'POST', '/api/v1/auth/login', { email: 'pat@push.example', password: PASSWORD });
      agent = { id: created.id, token };
      const channel = await ok<{ endpoint_url: string }>(
        201,
        A.base,
        'POST',
        '/api/v1/channels',
        { type: 'chat_api', name: 'App', webhook_url: 'http://127.0.0.1:9/unused', chunked: false, agent_ids: [] },
        admin,
      );
      endpoint = new URL(channel.endpoint_url).pathname;
    }, 90_000);

    afterAll(async () => {
      await Promise.all([A?.kill(), B?.kill()]);
      await push?.close();
      await store?.cleanup();
    });

    it('serves one VAPID key from both instances, started at once', async () => {
      const fromA = await ok<{ public_key: string }>(200, A.base, 'GET', '/api/v1/push/vapid-public-key', undefined, admin);
      const fromB = await ok<{ public_key: string }>(200, B.base, 'GET', '/api/v1/push/vapid-public-key', undefined, agent.token);
      expect(fromB.public_key).toBe(fromA.public_key);
      vapidKey = fromA.public_key;
      // The admin's device registered on A, the agent's on B: both instances see both.
      for (const [base, token] of [
        [A.base, admin],
        [B.base, agent.token],
      ] as const) {
        const device = push.subscribe();
        await ok(201, base, 'POST', '/api/v1/me/push-subscriptions', { endpoint: device.endpoint, keys: device.keys }, token);
        devices.push(device);
      }
    });

    it('pushes each new chat once to each device, whichever instance received it', async () => {
      const N = 10;
      const answers = await Promise.all(Array.from({ length: N }, (_, n) => inbound(n % 2 ? A : B, `push-${n}`, `hello ${n}`)));
      expect(answers.map((r) => r.status)).toEqual(Array.from({ length: N }, () => 200));
      const newChats = (d: TestSubscription) => push.pushesFor(d).filter((p) => p.payload.kind === 'new_chat');
      await waitFor(() => devices.every((d) => newChats(d).length >= N), 30_000);
      // Give a duplicate, if any, the time to arrive.
      await new Promise((r) => setTimeout(r, 2500));
      for (const d of devices) {
        const chats = newChats(d).map((p) => p.payload.chat_id as number);
        expect(chats).toHaveLength(N);
        expect(new Set(chats).size).toBe(N);
        expect(new Set(newChats(d).map((p) => p.payload.body))).toEqual(new Set(Array.from({ length: N }, (_, n) => `hello ${n}`)));
      }
      expect(push.invalid).toEqual([]);
    });

    it("pushes a visitor's messages once to the agent holding the chat, sent through either instance", async () => {
      const first = await inbound(A, 'held', 'first');
      expect(first.status).toBe(200);
      const agentDevice = devices[1];
      const chatId = (await waitFor(() => push.pushesFor(agentDevice).find((p) => p.payload.kind === 'new_chat' && p.payload.body === 'first'), 15_000)).payload
        .chat_id as number;
      await ok(200, B.base, 'POST', `/api/v1/chats/${chatId}/accept`, undefined, agent.token);
      const texts = ['one', 'two', 'three', 'four'];
      for (const [i, text] of texts.entries()) expect((await inbound(i % 2 ? A : B, 'held', text)).status).toBe(200);
      const messages = () => push.pushesFor(agentDevice).filter((p) => p.payload.kind === 'message' && p.payload.chat_id === chatId);
      await waitFor(() => messages().length >= texts.length, 20_000);
      await new Promise((r) => setTimeout(r, 2500));
      expect(
        messages()
          .map((p) => p.payload.body as string)
          .sort(),
      ).toEqual([...texts].sort());
      expect(messages().every((p) => p.topic === `chat-${chatId}`)).toBe(true);
      // The admin's device: nothing of a chat the agent holds.
      expect(push.pushesFor(devices[0]).filter((p) => p.payload.kind === 'message')).toEqual([]);
    });
  });
}
