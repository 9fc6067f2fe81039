/**
 * `kill -9` at random moments of a load run, then a restart on the same data
 * (the SQLite file or the PostgreSQL schema of the project that runs it),
 * several rounds (README, docs/CHAT-CHANNEL.md, docs/EVENTS.md). The load: chat-channel POSTs with
 * distinct texts (their changing visitor names also send `chat_updated` event
 * webhooks) and agent replies (chat-channel deliveries, `chat_accepted`
 * events) to a receiver on 127.0.0.1. After the last restart: every message
 * answered 200 or 201 is stored exactly once, every delivery is made, each
 * webhook-id reaches the receiver, a second copy of one webhook-id is the
 * same bytes and only for an attempt that was in flight at a kill, and no
 * message or event ever gets a second, different delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, testDialect, type TestStore } from '../helpers/testApp.js';
import { assertBuilt } from '../process/serverProcess.js';
import {
  call,
  createChannel,
  expectCall,
  inbound,
  login,
  openChat,
  openReader,
  sleep,
  startParley,
  startReceiver,
  waitFor,
  type Parley,
  type Receiver,
  type StoreReader,
} from './harness.js';

const ROUNDS = 3;
const WORKERS = 6;
const CHATS = 8;
/** A kill lands this long after the load of a round starts, at random. */
const KILL_AFTER_MS: [number, number] = [600, 3000];
/**
 * The receiver may see a request of the killed process a little after the
 * kill (it was on the wire; the test's event loop is busy), but no new process
 * sends anything this soon after being spawned (node, the store and its
 * migrations take longer to start).
 */
const OBSERVATION_LAG_MS = 200;

interface Sent {
  kind: 'inbound' | 'agent';
  text: string;
  /** HTTP status, or 0 when the request got no answer (the process died under it). */
  status: number;
  /** The agent message's id (201). */
  id?: number;
  ms: number;
}

interface DeliveryRow {
  id: number;
  kind: string;
  status: string;
  webhook_id: string;
  message_id: number | null;
  event_id: number | null;
  body: string;
  attempts: number;
  last_error: string | null;
}

describe(`kill -9 under load and restart on the same data (${testDialect()})`, () => {
  let store: TestStore;
  let receiver: Receiver;
  let app: Parley | null = null;
  let reader: StoreReader | null = null;

  beforeAll(async () => {
    assertBuilt();
    store = freshStore();
    receiver = await startReceiver(150);
  });

  afterAll(async () => {
    await reader?.close();
    await app?.kill();
    await receiver?.close();
    await store?.cleanup();
  });

  it(`keeps every 200/201 and makes every due delivery once per webhook-id across ${ROUNDS} kills`, { timeout: 120_000 }, async () => {
    app = await startParley(store.env);
    const port = Number(new URL(app.base).port);
    const token = await login(app.base);
    await expectCall(200, app.base, 'PUT', '/api/v1/settings', { event_webhook_url: `${receiver.url}/events` }, token);
    const channel = await createChannel(app.base, token, `${receiver.url}/chat`);
    const chats: number[] = [];
    for (let i = 0; i < CHATS; i++) chats.push(await openChat(app.base, token, channel, `kill-visitor-${i}`));

    const sent: Sent[] = [];
    const kills: Array<{ at: number; spawnedAt: number; readyAt: number }> = [];
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const base: string = app.base;
      let running = true;
      const worker = async (): Promise<void> => {
        while (running) {
          const i = n++;
          const agent = i % 2 === 1;
          const text = `kill-r${round}-${agent ? 'agent' : 'visitor'}-${i}`;
          const entry: Sent = { kind: agent ? 'agent' : 'inbound', text, status: 0, ms: 0 };
          sent.push(entry);
          const started = Date.now();
          try {
            if (agent) {
              const res = await call(base, 'POST', `/api/v1/chats/${chats[i % CHATS]}/messages`, { type: 'text', text }, token, 10_000);
              entry.status = res.status;
              if (res.status === 201) entry.id = (res.body as { id: number }).id;
            } else {
              // A known visitor with a new name (a chat_updated event), or a new visitor now and then.
              const sender = i % 10 === 0 ? `kill-new-${i}` : `kill-visitor-${i % CHATS}`;
              entry.status = (await call(base, 'POST', channel.path, inbound(sender, text, `Name ${i}`), undefined, 10_000)).status;
            }
          } catch {
            // No answer: the process is gone. This worker is done for the round.
            return;
          }
          entry.ms = Date.now() - started;
          // A steady stream rather than a flood: the store keeps up, deliveries stay on time.
          await sleep(5 + Math.random() * 20);
        }
      };
      const load = Promise.all(Array.from({ length: WORKERS }, worker));
      await sleep(KILL_AFTER_MS[0] + Math.random() * (KILL_AFTER_MS[1] - KILL_AFTER_MS[0]));
      const at = Date.now();
      await app.kill();
      running = false;
      await load;
      const spawnedAt = Date.now();
      app = await startParley(store.env, { port });
      kills.push({ at, spawnedAt, readyAt: Date.now() });
    }

    // The last process settles everything: no delivery left pending (an event webhook in
    // flight at a kill is locked for its 10 s timeout + 1 s before it is sent again).
    reader = await openReader(store.env);
    const rows = await waitFor(
      'every delivery to settle',
      async () => {
        const all = await reader!.all<DeliveryRow>(
          'select id, kind, status, webhook_id, message_id, event_id, body, attempts, last_error from deliveries order by id',
        );
        return all.every((d) => d.status !== 'pending') ? all : null;
      },
      45_000,
      250,
    );
    // Received after the rows settled: wait for the answers in flight to be recorded.
    await sleep(300);

    const messages = await reader.all<{ id: number; text: string | null; author: string; delivery_status: string | null }>(
      "select id, text, author, delivery_status from messages where text like 'kill-r%'",
    );
    const storedTexts = new Map<string, number>();
    for (const m of messages) storedTexts.set(m.text ?? '', (storedTexts.get(m.text ?? '') ?? 0) + 1);
    const byId = new Map(messages.map((m) => [Number(m.id), m]));

    // Every 200 (visitor) and 201 (agent) is stored, exactly once; nothing is stored twice.
    const accepted = sent.filter((s) => s.status === 200 || s.status === 201);
    expect(sent.filter((s) => s.status !== 0 && s.status !== 200 && s.status !== 201).map((s) => `${s.text}: ${s.status}`)).toEqual([]);
    expect(accepted.filter((s) => storedTexts.get(s.text) !== 1).map((s) => `${s.text} stored ${storedTexts.get(s.text) ?? 0}×`)).toEqual([]);
    expect([...storedTexts].filter(([, count]) => count > 1)).toEqual([]);

    // Every delivery due is made.
    const notDelivered = rows.filter((d) => d.status !== 'delivered');
    expect(notDelivered.map((d) => `${d.kind} ${d.id} ${d.status} after ${d.attempts}: ${d.last_error}`)).toEqual([]);

    // One delivery per agent message and per event: a second, different copy never exists.
    const perKey = (key: (d: DeliveryRow) => number | null): number[] => {
      const seen = new Map<number, number>();
      for (const d of rows) {
        const k = key(d);
        if (k !== null) seen.set(Number(k), (seen.get(Number(k)) ?? 0) + 1);
      }
      return [...seen].filter(([, c]) => c > 1).map(([k]) => k);
    };
    expect(perKey((d) => (d.kind === 'chat_channel' ? d.message_id : null))).toEqual([]);
    expect(perKey((d) => (d.kind === 'event_webhook' ? d.event_id : null))).toEqual([]);

    // Agent messages answered 201 reach the customer endpoint (under one webhook-id), and show delivered.
    const chatRequests = receiver.requests.filter((r) => r.path.startsWith('/chat/'));
    for (const s of accepted.filter((x) => x.kind === 'agent')) {
      const copies = chatRequests.filter((r) => (JSON.parse(r.body) as { message: { id: string } }).message.id === String(s.id));
      expect(copies.length, `${s.text} (message ${s.id}) at the customer endpoint`).toBeGreaterThanOrEqual(1);
      expect(new Set(copies.map((c) => c.webhookId)).size, `${s.text}: webhook-ids`).toBe(1);
      expect(byId.get(s.id!)?.delivery_status, s.text).toBe('delivered');
    }

    // Each webhook-id reaches the receiver; a repeat is the same bytes, of an attempt in flight at a kill.
    const byWebhookId = new Map<string, typeof receiver.requests>();
    for (const r of receiver.requests) byWebhookId.set(r.webhookId, [...(byWebhookId.get(r.webhookId) ?? []), r]);
    const rowByWebhookId = new Map(rows.map((d) => [d.webhook_id, d]));
    expect([...byWebhookId.keys()].filter((id) => !rowByWebhookId.has(id))).toEqual([]);
    expect(rows.filter((d) => !byWebhookId.has(d.webhook_id)).map((d) => `${d.kind} ${d.id}`)).toEqual([]);
    /** Per kill: repeated webhook-ids, and when their earlier copy was seen, in ms from the kill signal. */
    const repeats = kills.map(() => ({ chat_channel: 0, event_webhook: 0, offsets: [] as number[] }));
    for (const [id, copies] of byWebhookId) {
      expect(new Set(copies.map((c) => c.body)).size, `${id}: every copy is the same body`).toBe(1);
      expect(
        copies.every((c) => c.body === rowByWebhookId.get(id)?.body),
        `${id}: the stored body`,
      ).toBe(true);
      for (let i = 1; i < copies.length; i++) {
        // Allowed only when a kill came between the two copies: the earlier attempt was in flight
        // then (sent by the killed process), the later one is the new process's retry.
        const k = kills.findIndex((x) => copies[i - 1].at <= x.spawnedAt + OBSERVATION_LAG_MS && copies[i].at > x.at);
        const times = copies.map((c) => c.at - copies[0].at).join('/');
        expect(
          k,
          `${rowByWebhookId.get(id)?.kind} ${id}: copy ${i + 1} without a kill in between (copies at +${times} ms; kills ${kills.map((x) => x.at - copies[0].at).join('/')})`,
        ).toBeGreaterThanOrEqual(0);
        const kind = rowByWebhookId.get(id)!.kind as 'chat_channel' | 'event_webhook';
        repeats[k][kind] += 1;
        repeats[k].offsets.push(copies[i - 1].at - kills[k].at);
      }
    }
    // At most one repeat per attempt the deliverer had in flight (MAX_IN_FLIGHT = 32) at each kill.
    for (const r of repeats) expect(r.chat_channel + r.event_webhook).toBeLessThanOrEqual(32);
    const latencies = sent
      .filter((s) => s.status !== 0)
      .map((s) => s.ms)
      .sort((a, b) => a - b);

    const count = (kind: Sent['kind'], ok: number): string =>
      `${sent.filter((s) => s.kind === kind && s.status === ok).length}/${sent.filter((s) => s.kind === kind).length}`;
    console.log(
      `[faults] kill -9 (${testDialect()}): ${kills.length} kills at ${kills.map((k, i) => `${i + 1}: restart took ${k.readyAt - k.at} ms`).join(', ')}; ` +
        `visitor messages 200: ${count('inbound', 200)}, agent messages 201: ${count('agent', 201)} (the rest got no answer: killed in flight); ` +
        `deliveries ${rows.length} (${rows.filter((d) => d.kind === 'chat_channel').length} chat channel, ${rows.filter((d) => d.kind === 'event_webhook').length} event webhooks), all delivered; ` +
        `answer times p50 ${latencies[Math.floor(latencies.length / 2)]} ms, max ${latencies[latencies.length - 1]} ms; requests at the receiver ${receiver.requests.length}; ` +
        `same-webhook-id repeats per kill: ${repeats
          .map(
            (r, i) =>
              `${i + 1}: ${r.chat_channel} chat channel + ${r.event_webhook} event webhooks` +
              (r.offsets.length ? ` (earlier copy seen ${Math.min(...r.offsets)}…${Math.max(...r.offsets)} ms from the kill signal)` : ''),
          )
          .join(', ')}`,
    );
  });
});
